package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The flow backend's own data structures against plain references on seeded random operations: the finish-time
 * heap against a linear scan for the minimum and for the latest finish by a cutoff (the completion window), the
 * exact long map against {@link HashMap}, and the fixed-size cache
 * for the two properties it promises (never a wrong value; the last four keys of one set all stay cached).
 */
class EventStructuresTest {

    private final Topology fabric = TestFabrics.fatTree(8, 2, 2, 50, new TestFabrics.Spec(2, 200, 64, 50, 0.5));

    private SimFlow flow(NetworkModel m, double finishAt) {
        SimFlow f = new SimFlow(0, 0, 0, 0, 1, 0, new Route(new int[] {0}, new double[] {1}, 0, m), 1, 0);
        f.finishAt = finishAt;
        return f;
    }

    @Test
    void finishHeapAlwaysYieldsTheEarliestFinish() {
        NetworkModel m = NetworkModel.of(fabric);
        Random rnd = new Random(7);
        FinishHeap heap = new FinishHeap();
        List<SimFlow> held = new ArrayList<>();
        for (int op = 0; op < 20_000; op++) {
            int kind = rnd.nextInt(10);
            if (kind < 4 || held.isEmpty()) {
                SimFlow f = flow(m, rnd.nextInt(1000) / 10.0);
                heap.add(f);
                held.add(f);
            } else if (kind < 6) {
                SimFlow f = held.get(rnd.nextInt(held.size()));
                f.finishAt = rnd.nextInt(1000) / 10.0;
                heap.update(f);
            } else if (kind < 7) {
                SimFlow f = held.remove(rnd.nextInt(held.size()));
                heap.remove(f);
                assertEquals(-1, f.heapPos);
            } else if (kind < 8) {
                for (SimFlow f : held) {
                    f.finishAt = rnd.nextInt(1000) / 10.0;
                }
                heap.rebuild();
            } else {
                double min = held.stream().mapToDouble(f -> f.finishAt).min().orElseThrow();
                SimFlow top = heap.poll();
                assertEquals(min, top.finishAt, 0, "op " + op);
                assertTrue(held.remove(top));
            }
            assertEquals(held.size(), heap.size());
            if (!held.isEmpty()) {
                double min = held.stream().mapToDouble(f -> f.finishAt).min().orElseThrow();
                assertEquals(min, heap.peek().finishAt, 0, "op " + op);
            }
            // the completion window's scan: latest finish at or before a cutoff, against a linear scan
            double cutoff = rnd.nextInt(1100) / 10.0;
            double floor = rnd.nextInt(300) / 10.0;
            double latest = floor;
            for (SimFlow f : held) {
                if (f.finishAt <= cutoff) {
                    latest = Math.max(latest, f.finishAt);
                }
            }
            assertEquals(latest, heap.latestAtMost(cutoff, floor), 0, "op " + op);
        }
        FinishHeap empty = new FinishHeap();
        empty.rebuild();
        assertNull(empty.poll());
    }

    @Test
    void longMapAgreesWithHashMap() {
        Random rnd = new Random(11);
        LongMap<Long> map = new LongMap<>();
        Map<Long, Long> ref = new HashMap<>();
        for (int op = 0; op < 50_000; op++) {
            long key = rnd.nextBoolean() ? rnd.nextInt(5_000) : ~(long) rnd.nextInt(5_000) * 9001L;
            if (rnd.nextBoolean()) {
                long value = rnd.nextLong();
                map.put(key, value);
                ref.put(key, value);
            } else {
                assertEquals(ref.get(key), map.get(key));
            }
        }
        assertEquals(ref.size(), map.size());
    }

    @Test
    void setAssociativeCacheNeverAnswersWronglyAndKeepsFourWays() {
        SetAssociativeCache<Long> cache = new SetAssociativeCache<>(4);
        Random rnd = new Random(13);
        Map<Long, Long> last = new HashMap<>();
        for (int op = 0; op < 20_000; op++) {
            long key = rnd.nextInt(200);
            Long got = cache.get(key);
            if (got != null) {
                assertEquals(last.get(key), got, "a cached value must be the last one put for its key");
            }
            long value = rnd.nextLong();
            cache.put(key, value);
            last.put(key, value);
            assertEquals(value, cache.get(key));
        }
        // 8 slots = 2 sets of 4 ways: 4 keys never exceed one set's ways, so all 4 stay cached however they hash
        // (a direct-mapped cache of 8 slots would lose one whenever two of them share a slot)
        SetAssociativeCache<String> small = new SetAssociativeCache<>(3);
        long[] keys = {1, 2, 3, 4};
        for (long k : keys) {
            small.put(k, "v" + k);
        }
        int kept = 0;
        for (long k : keys) {
            if (small.get(k) != null) {
                assertEquals("v" + k, small.get(k));
                kept++;
            }
        }
        assertEquals(4, kept);
    }
}
