package dev.collsim.executor;

import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Inputs whose reduction is exact in every order, and the expected outputs, for the data check.
 *
 * <p>Every input is a small non-negative integer, so sums, minima and maxima are exact in any order as long as
 * the largest possible result is below the type's exact-integer limit ({@link #exactLimit}); products use 1
 * everywhere except one rank per element, which gives 1, 2 or 3. This mirrors the aim of nccl-tests'
 * {@code verifiable/} kernels (results independent of reduction order, checked with tolerance 0, except
 * {@code avg} on floating types, where NCCL multiplies before summing and a tolerance of 2 units in the last
 * place is allowed).
 *
 * <p>The value of element i on rank r depends on k = (37 i mod 257) and r, so it is periodic in i with the prime
 * period {@link #PERIOD}: blocks of a buffer at offsets that are multiples of any power of two (the counts
 * nccl-tests uses) hold different values, so data delivered to the wrong block is caught. Buffers are filled and
 * checked by tiling one encoded period.
 */
public final class Verifiable {

    private final RedOp op;
    private final DataType type;
    private final int nRanks;
    /** Period of every pattern in elements: a prime, so it divides no power-of-two block offset. */
    public static final int PERIOD = 257;

    private final int mode; // 0: (k+11r) % (maxV+1); 1: ((k+r)%n < L) ? 1 : 0; 2: product pattern
    private final int maxV;
    private final int period = PERIOD;

    /**
     * @param op     the reduction (SUM for collectives without one)
     * @param type   the data type
     * @param nRanks ranks, >= 1
     */
    public Verifiable(RedOp op, DataType type, int nRanks) {
        this.op = op;
        this.type = type;
        this.nRanks = nRanks;
        long limit = exactLimit(type);
        if (op == RedOp.PROD) {
            mode = 2;
            maxV = 3;
        } else if (limit >= nRanks) {
            mode = 0;
            maxV = (int) Math.min(7, limit / nRanks);
        } else {
            mode = 1;
            maxV = 1;
        }
    }

    /**
     * The largest integer L such that 0..L are exact in the type and sums up to L do not overflow it: int8 127,
     * uint8 255; a floating type with m mantissa bits ({@link NumberCodec#mantissaBits}) holds every integer up to
     * 2^(m+1): half 2048 (11 significant bits), bfloat16 256 (8), float 2^24, double 2^53, FP8 E4M3 16 (4), E5M2 8
     * (3); wider integers are capped at 2^31.
     *
     * @param t a type
     * @return L
     */
    public static long exactLimit(DataType t) {
        int m = NumberCodec.mantissaBits(t);
        if (m > 0) {
            return 1L << (m + 1);
        }
        return switch (t) {
            case INT8 -> 127;
            case UINT8 -> 255;
            default -> 1L << 31;
        };
    }

    /** @return the period of the input pattern in elements */
    public int period() {
        return period;
    }

    /**
     * @param rank  the rank
     * @param index element index in the rank's send buffer
     * @return the input value
     */
    public long input(int rank, long index) {
        long k = (37 * Math.floorMod(index, (long) PERIOD)) % PERIOD;
        return switch (mode) {
            case 0 -> (k + 11L * rank) % (maxV + 1);
            case 1 -> ((k + rank) % nRanks) < exactLimit(type) ? 1 : 0;
            default -> ((k + rank) % nRanks == 0) ? 1 + (k % 3) : 1;
        };
    }

    /**
     * @param index element index
     * @return the reduction over all ranks of {@link #input}(r, index), as the op defines it (avg: sum / nRanks,
     *         truncated for integer types)
     */
    public double reduced(long index) {
        double acc = input(0, index);
        for (int r = 1; r < nRanks; r++) {
            double v = input(r, index);
            acc = switch (op) {
                case SUM, AVG -> acc + v;
                case PROD -> acc * v;
                case MIN -> Math.min(acc, v);
                case MAX -> Math.max(acc, v);
            };
        }
        if (op == RedOp.AVG) {
            acc = type.isFloating() ? acc / nRanks : Math.floor(acc / nRanks);
        }
        return acc;
    }

    /**
     * One period of a rank's input, encoded.
     *
     * @param rank the rank
     * @return period() elements, little-endian
     */
    public byte[] inputPeriod(int rank) {
        ByteBuffer b = ByteBuffer.allocate(period * type.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < period; i++) {
            NumberCodec.put(b, type, input(rank, i));
        }
        return b.array();
    }

    /** @return one period of the reduced values (the exact double results) */
    public double[] reducedPeriod() {
        double[] out = new double[period];
        for (int i = 0; i < period; i++) {
            out[i] = reduced(i);
        }
        return out;
    }

    /** @return one period of a rank's input as doubles */
    public double[] inputValues(int rank) {
        double[] out = new double[period];
        for (int i = 0; i < period; i++) {
            out[i] = input(rank, i);
        }
        return out;
    }

    /**
     * @return true when results may differ from the exact value by rounding (avg on floating types: NCCL
     *         pre-multiplies by 1/nRanks)
     */
    public boolean needsTolerance() {
        return op == RedOp.AVG && type.isFloating();
    }

    /**
     * Whether a result element is right: exact equality, or within 2 units in the last place of the type for
     * {@link #needsTolerance()} (nccl-tests 2.19.6 allows 2 units for avg on floating types).
     *
     * @param got      the value read back
     * @param expected the exact value
     * @return true when right
     */
    public boolean matches(double got, double expected) {
        if (!needsTolerance()) {
            return got == expected;
        }
        if (Double.isNaN(got)) {
            return false;
        }
        double ulp = expected == 0 ? Math.scalb(1.0, -NumberCodec.mantissaBits(type))
                : Math.scalb(1.0, Math.getExponent(expected) - NumberCodec.mantissaBits(type));
        return Math.abs(got - expected) <= 2 * ulp;
    }
}
