package dev.collsim.simulator.network;

import java.util.Arrays;

/**
 * The flows in flight ordered by projected finish time ({@link SimFlow#finishAt}): an indexed 4-ary min-heap
 * (each flow knows its position, {@link SimFlow#heapPos}; the keys are kept beside the flows so comparisons do not
 * touch the flow objects), so a flow whose rate changed is moved in O(log n) and the simulation never scans every
 * flow to find the next finish. Not thread-safe.
 */
final class FinishHeap {

    private static final int ARITY = 4;

    private SimFlow[] heap = new SimFlow[64];
    private double[] key = new double[64];
    private int size;
    /** Work stack of {@link #latestAtMost}. */
    private int[] scratch = new int[64];

    /** @return number of flows held */
    int size() {
        return size;
    }

    /** @return the flow that finishes first, or null when empty */
    SimFlow peek() {
        return size == 0 ? null : heap[0];
    }

    /**
     * The latest finish time among the flows that finish by {@code cutoff}, visiting only those flows (a subtree
     * whose root finishes after the cutoff is skipped whole: every flow in it finishes later still), so a completion
     * window costs O(flows in it), not O(flows in flight).
     *
     * @param cutoff   time, microseconds
     * @param earliest returned when no flow finishes by the cutoff
     * @return the latest finish time {@code <= cutoff}, or {@code earliest} when larger or none
     */
    double latestAtMost(double cutoff, double earliest) {
        double best = earliest;
        if (size == 0 || key[0] > cutoff) {
            return best;
        }
        int[] stack = scratch;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int i = stack[--top];
            best = Math.max(best, key[i]);
            int first = ARITY * i + 1;
            int last = Math.min(first + ARITY, size);
            for (int c = first; c < last; c++) {
                if (key[c] <= cutoff) {
                    if (top == stack.length) {
                        stack = Arrays.copyOf(stack, stack.length * 2);
                        scratch = stack;
                    }
                    stack[top++] = c;
                }
            }
        }
        return best;
    }

    /** @param f a flow not held yet */
    void add(SimFlow f) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
            key = Arrays.copyOf(key, size * 2);
        }
        int i = size++;
        heap[i] = f;
        key[i] = f.finishAt;
        f.heapPos = i;
        up(i);
    }

    /** Restores the order after {@code f}'s finish time changed. @param f a held flow */
    void update(SimFlow f) {
        int i = f.heapPos;
        key[i] = f.finishAt;
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
        for (int i = 0; i < size; i++) {
            key[i] = heap[i].finishAt;
        }
        for (int i = size < 2 ? -1 : (size - 2) / ARITY; i >= 0; i--) {
            down(i);
        }
    }

    private void removeAt(int i) {
        SimFlow gone = heap[i];
        size--;
        if (i != size) {
            SimFlow moved = heap[size];
            move(size, i);
            heap[size] = null;
            up(i);
            down(moved.heapPos);
        } else {
            heap[size] = null;
        }
        gone.heapPos = -1;
    }

    private void move(int from, int to) {
        put(to, heap[from], key[from]);
    }

    /** Slot i holds flow f with finish time k, and f knows its slot. */
    private void put(int i, SimFlow f, double k) {
        heap[i] = f;
        key[i] = k;
        f.heapPos = i;
    }

    private void up(int i) {
        SimFlow f = heap[i];
        double k = key[i];
        while (i > 0) {
            int p = (i - 1) / ARITY;
            if (key[p] <= k) {
                break;
            }
            move(p, i);
            i = p;
        }
        put(i, f, k);
    }

    private void down(int i) {
        SimFlow f = heap[i];
        double k = key[i];
        while (true) {
            int first = ARITY * i + 1;
            if (first >= size) {
                break;
            }
            int best = first;
            int last = Math.min(first + ARITY, size);
            for (int c = first + 1; c < last; c++) {
                if (key[c] < key[best]) {
                    best = c;
                }
            }
            if (key[best] >= k) {
                break;
            }
            move(best, i);
            i = best;
        }
        put(i, f, k);
    }
}
