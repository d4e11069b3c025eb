package dev.collsim.simulator.network;

import java.util.Arrays;

/**
 * An exact hash map from long keys to values (open addressing, linear probing, doubled at half full), without
 * boxing. For caches whose key count is known to stay small, e.g. linear in hosts. Not thread-safe.
 *
 * @param <V> value type
 */
final class LongMap<V> {

    private long[] keys = new long[64];
    private Object[] values = new Object[64];
    private int size;

    /** @param key any key; @return its value, or null */
    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return (V) values[i];
            }
        }
        return null;
    }

    /** Maps {@code key} to {@code value}, replacing any previous value. @param value not null */
    void put(long key, V value) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (values[i] != null) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /** @return number of keys */
    int size() {
        return size;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldValues[j] != null) {
                int i = slot(oldKeys[j], mask);
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
        Arrays.fill(oldValues, null);
    }

    private static int slot(long key, int mask) {
        long z = key * 0x9E3779B97F4A7C15L;
        return (int) (z ^ (z >>> 32)) & mask;
    }
}
