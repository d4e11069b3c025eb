package dev.collsim.executor;

import dev.collsim.nccl.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fills and checks buffers by tiling one encoded period of a {@link Verifiable} pattern. Works on host
 * buffers; the GPU code copies device memory to and from them in chunks.
 */
public final class PatternIo {

    private PatternIo() {
    }

    /**
     * Writes elements [phase, phase + count) of a periodic sequence into dst from its position.
     *
     * @param dst     destination (position advanced by count x element size)
     * @param period  one encoded period
     * @param eltSize element size, bytes
     * @param phase   index of the first element in the sequence
     * @param count   elements to write
     */
    public static void fill(ByteBuffer dst, byte[] period, int eltSize, long phase, long count) {
        int p = period.length / eltSize;
        int start = (int) Math.floorMod(phase, (long) p);
        long left = count;
        // first partial period
        int first = (int) Math.min(left, p - start);
        dst.put(period, start * eltSize, first * eltSize);
        left -= first;
        while (left >= p) {
            dst.put(period);
            left -= p;
        }
        if (left > 0) {
            dst.put(period, 0, (int) left * eltSize);
        }
    }

    /**
     * Counts elements of src (from its position, count elements) that differ from a periodic expectation.
     * Equal bytes are right; otherwise both sides are decoded and compared with {@link Verifiable#matches}.
     *
     * @param src       what was read back (position advanced)
     * @param expected  one encoded period of the expected values
     * @param values    the same period as exact doubles
     * @param type      the data type
     * @param v         the pattern (for its tolerance rule)
     * @param phase     index of the first element in the sequence
     * @param count     elements to check
     * @return the number of wrong elements
     */
    public static long countWrong(ByteBuffer src, byte[] expected, double[] values, DataType type, Verifiable v,
            long phase, long count) {
        return countWrong(src, expected, values, type, v, phase, count, null);
    }

    /**
     * As {@link #countWrong(ByteBuffer, byte[], double[], DataType, Verifiable, long, long)}, reusing a scratch
     * buffer for the tiled expectation (no garbage per call).
     *
     * @param scratch a heap buffer of at least count x element size bytes, or null to allocate one
     * @return the number of wrong elements
     */
    public static long countWrong(ByteBuffer src, byte[] expected, double[] values, DataType type, Verifiable v,
            long phase, long count, ByteBuffer scratch) {
        int es = type.size();
        int p = values.length;
        // fast path: compare against the tiled expectation with a vectorized mismatch
        ByteBuffer want = scratch == null ? ByteBuffer.allocate((int) (count * es)) : scratch.clear();
        fill(want, expected, es, phase, count);
        want.flip();
        int start = src.position();
        ByteBuffer got = src.slice().limit((int) (count * es));
        if (got.mismatch(want) < 0) {
            src.position(start + (int) (count * es));
            return 0;
        }
        long wrong = 0;
        int k = (int) Math.floorMod(phase, (long) p);
        ByteBuffer one = ByteBuffer.allocate(es).order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < count; i++) {
            int base = src.position();
            boolean same = true;
            for (int b = 0; b < es; b++) {
                if (src.get(base + b) != expected[k * es + b]) {
                    same = false;
                    break;
                }
            }
            if (!same) {
                one.clear();
                for (int b = 0; b < es; b++) {
                    one.put(src.get(base + b));
                }
                one.flip();
                if (!v.matches(NumberCodec.get(one, type), values[k])) {
                    wrong++;
                }
            }
            src.position(base + es);
            k = (k + 1 == p) ? 0 : k + 1;
        }
        return wrong;
    }
}
