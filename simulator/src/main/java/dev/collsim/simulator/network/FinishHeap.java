package dev.collsim.simulator.network;

import java.util.Arrays;

/**
 * The flows in flight ordered by projected finish time ({@link SimFlow#finishAt}): an indexed binary min-heap
 * (each flow knows its position, {@link SimFlow#heapPos}), so a flow whose rate changed is moved in O(log n) and
 * the simulation never scans every flow to find the next finish. Not thread-safe.
 */
final class FinishHeap {

    private SimFlow[] heap = new SimFlow[64];
    private int size;

    /** @return number of flows held */
    int size() {
        return size;
    }

    /** @return the flow that finishes first, or null when empty */
    SimFlow peek() {
        return size == 0 ? null : heap[0];
    }

    /** @param f a flow not held yet */
    void add(SimFlow f) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = f;
        f.heapPos = size++;
        up(f.heapPos);
    }

    /** Restores the order after {@code f}'s finish time changed. @param f a held flow */
    void update(SimFlow f) {
        int i = f.heapPos;
        up(i);
        down(f.heapPos);
    }

    /** Removes and returns the flow that finishes first. @return it, or null when empty */
    SimFlow poll() {
        if (size == 0) {
            return null;
        }
        SimFlow top = heap[0];
        removeAt(0);
        return top;
    }

    /** @param f a held flow, removed */
    void remove(SimFlow f) {
        removeAt(f.heapPos);
    }

    /** Reorders every held flow after many finish times changed (O(n)). */
    void rebuild() {
        for (int i = size / 2 - 1; i >= 0; i--) {
            down(i);
        }
    }

    private void removeAt(int i) {
        SimFlow gone = heap[i];
        size--;
        if (i != size) {
            heap[i] = heap[size];
            heap[i].heapPos = i;
            heap[size] = null;
            up(i);
            down(heap[i].heapPos);
        } else {
            heap[size] = null;
        }
        gone.heapPos = -1;
    }

    private void up(int i) {
        SimFlow f = heap[i];
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (heap[p].finishAt <= f.finishAt) {
                break;
            }
            heap[i] = heap[p];
            heap[i].heapPos = i;
            i = p;
        }
        heap[i] = f;
        f.heapPos = i;
    }

    private void down(int i) {
        SimFlow f = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && heap[c + 1].finishAt < heap[c].finishAt) {
                c++;
            }
            if (heap[c].finishAt >= f.finishAt) {
                break;
            }
            heap[i] = heap[c];
            heap[i].heapPos = i;
            i = c;
        }
        heap[i] = f;
        f.heapPos = i;
    }
}
