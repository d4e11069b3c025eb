package dev.collsim.simulator.network;

/**
 * A fixed-size cache from long keys to values, 4-way set associative: a key hashes to a set of four slots and a
 * new entry replaces the set's oldest (round robin). Memory is fixed at construction (no growth, no clearing, no
 * boxing), which suits routes: an AllToAll on n ranks routes n(n-1) distinct pairs once each, while rings and
 * trees route the same few pairs again and again; four ways keep two hot keys that hash alike from evicting each
 * other on every use. Not thread-safe.
 *
 * @param <V> value type
 */
final class SetAssociativeCache<V> {

    private static final int WAYS = 4;

    private final long[] keys;
    private final Object[] values;
    private final byte[] next;
    private final int shift;

    /**
     * @param log2Slots base-2 logarithm of the number of slots, 3 to 30
     * @throws IllegalArgumentException when outside that range
     */
    SetAssociativeCache(int log2Slots) {
        if (log2Slots < 3 || log2Slots > 30) {
            throw new IllegalArgumentException("log2Slots must be in [3, 30], got " + log2Slots);
        }
        keys = new long[1 << log2Slots];
        values = new Object[1 << log2Slots];
        next = new byte[(1 << log2Slots) / WAYS];
        shift = 64 - (log2Slots - 2);
    }

    /** @param key any key; @return the value cached for it, or null */
    @SuppressWarnings("unchecked")
    V get(long key) {
        int base = set(key) * WAYS;
        for (int w = 0; w < WAYS; w++) {
            if (values[base + w] != null && keys[base + w] == key) {
                return (V) values[base + w];
            }
        }
        return null;
    }

    /** Caches {@code value} for {@code key}, replacing the oldest entry of its set. @param value not null */
    void put(long key, V value) {
        int set = set(key);
        int base = set * WAYS;
        for (int w = 0; w < WAYS; w++) {
            if (values[base + w] != null && keys[base + w] == key) {
                values[base + w] = value;
                return;
            }
        }
        int w = next[set];
        next[set] = (byte) ((w + 1) % WAYS);
        keys[base + w] = key;
        values[base + w] = value;
    }

    private int set(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    }
}
