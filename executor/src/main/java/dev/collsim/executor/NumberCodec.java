package dev.collsim.executor;

import dev.collsim.nccl.DataType;
import java.nio.ByteBuffer;

/**
 * Encodes and decodes one element of each NCCL data type in little-endian memory order (the layout on x86 and
 * NVIDIA GPUs). Small floating formats follow their definitions: IEEE 754 binary16 (half: 5 exponent bits,
 * 10 mantissa bits), bfloat16 (8, 7), OCP FP8 E4M3 (4, 3, bias 7, no infinities, S.1111.111 is NaN) and
 * E5M2 (5, 2, bias 15, IEEE-like).
 */
public final class NumberCodec {

    private NumberCodec() {
    }

    /**
     * @param t a type
     * @return mantissa (fraction) bits of a floating type; 0 for integer types
     */
    public static int mantissaBits(DataType t) {
        return switch (t) {
            case HALF -> 10;
            case BFLOAT16 -> 7;
            case FLOAT -> 23;
            case DOUBLE -> 52;
            case F8E4M3 -> 3;
            case F8E5M2 -> 2;
            default -> 0;
        };
    }

    private static int exponentBits(DataType t) {
        return switch (t) {
            case HALF, F8E5M2 -> 5;
            case BFLOAT16 -> 8;
            case F8E4M3 -> 4;
            default -> 0;
        };
    }

    /**
     * Writes v at the buffer's position and advances it.
     *
     * @param b a little-endian buffer
     * @param t the type
     * @param v the value; must be exactly representable in t (integers are truncated toward zero)
     */
    public static void put(ByteBuffer b, DataType t, double v) {
        switch (t) {
            case INT8, UINT8 -> b.put((byte) (long) v);
            case INT32, UINT32 -> b.putInt((int) (long) v);
            case INT64, UINT64 -> b.putLong((long) v);
            case FLOAT -> b.putFloat((float) v);
            case DOUBLE -> b.putDouble(v);
            case HALF, BFLOAT16 -> b.putShort((short) smallFloatBits(t, v));
            case F8E4M3, F8E5M2 -> b.put((byte) smallFloatBits(t, v));
        }
    }

    /**
     * Reads the element at the buffer's position and advances it.
     *
     * @param b a little-endian buffer
     * @param t the type
     * @return the value (unsigned types read as unsigned)
     */
    public static double get(ByteBuffer b, DataType t) {
        return switch (t) {
            case INT8 -> b.get();
            case UINT8 -> b.get() & 0xFF;
            case INT32 -> b.getInt();
            case UINT32 -> b.getInt() & 0xFFFFFFFFL;
            case INT64 -> b.getLong();
            case UINT64 -> {
                long x = b.getLong();
                yield x >= 0 ? x : (x >>> 1) * 2.0 + (x & 1);
            }
            case FLOAT -> b.getFloat();
            case DOUBLE -> b.getDouble();
            case HALF, BFLOAT16 -> smallFloatValue(t, b.getShort() & 0xFFFF);
            case F8E4M3, F8E5M2 -> smallFloatValue(t, b.get() & 0xFF);
        };
    }

    /**
     * Bit pattern of an exactly representable value in a small float format (half, bfloat16, FP8).
     *
     * @param t the format
     * @param v the value (finite, exactly representable, normal or subnormal)
     * @return the bits, in the low 8 or 16 bits
     * @throws IllegalArgumentException when v is not exactly representable
     */
    public static int smallFloatBits(DataType t, double v) {
        int eb = exponentBits(t);
        int mb = mantissaBits(t);
        int bias = (1 << (eb - 1)) - 1;
        int sign = (v < 0 || (v == 0 && 1 / v < 0)) ? 1 : 0;
        double a = Math.abs(v);
        int bits;
        if (a == 0) {
            bits = 0;
        } else {
            int e = Math.getExponent(a);
            if (e < 1 - bias) { // subnormal
                double m = a / Math.scalb(1.0, 1 - bias - mb);
                bits = checkedInt(m, v, t);
            } else {
                double frac = a / Math.scalb(1.0, e) - 1.0;
                int m = checkedInt(frac * (1 << mb), v, t);
                bits = ((e + bias) << mb) | m;
            }
        }
        return (sign << (eb + mb)) | bits;
    }

    private static int checkedInt(double x, double v, DataType t) {
        if (x != Math.rint(x)) {
            throw new IllegalArgumentException(v + " is not exactly representable as " + t.testName());
        }
        return (int) x;
    }

    /**
     * @param t    the format
     * @param bits the bit pattern
     * @return the value, NaN or infinity as the format defines
     */
    public static double smallFloatValue(DataType t, int bits) {
        int eb = exponentBits(t);
        int mb = mantissaBits(t);
        int bias = (1 << (eb - 1)) - 1;
        int sign = (bits >>> (eb + mb)) & 1;
        int exp = (bits >>> mb) & ((1 << eb) - 1);
        int man = bits & ((1 << mb) - 1);
        int maxExp = (1 << eb) - 1;
        double s = sign == 1 ? -1 : 1;
        if (t == DataType.F8E4M3) {
            if (exp == maxExp && man == (1 << mb) - 1) {
                return Double.NaN;
            }
        } else if (exp == maxExp) {
            return man == 0 ? s * Double.POSITIVE_INFINITY : Double.NaN;
        }
        if (exp == 0) {
            return s * man * Math.scalb(1.0, 1 - bias - mb);
        }
        return s * (1.0 + man / (double) (1 << mb)) * Math.scalb(1.0, exp - bias);
    }
}
