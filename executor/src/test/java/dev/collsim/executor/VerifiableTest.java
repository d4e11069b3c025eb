package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class VerifiableTest {

    /**
     * Exact-integer limits from the formats' definitions: a binary float with p significant bits (mantissa bits + 1)
     * holds every integer up to 2^p, and 2^p + 1 is the first it cannot: IEEE 754 binary16 p = 11, bfloat16 8,
     * binary32 24, binary64 53, OCP FP8 E4M3 4, E5M2 3. int8 and uint8 stop at their largest value.
     */
    @Test
    void exactLimitsFollowTheFormats() {
        assertEquals(2048, Verifiable.exactLimit(DataType.HALF));
        assertEquals(256, Verifiable.exactLimit(DataType.BFLOAT16));
        assertEquals(16_777_216L, Verifiable.exactLimit(DataType.FLOAT));
        assertEquals(9_007_199_254_740_992L, Verifiable.exactLimit(DataType.DOUBLE));
        assertEquals(16, Verifiable.exactLimit(DataType.F8E4M3));
        assertEquals(8, Verifiable.exactLimit(DataType.F8E5M2));
        assertEquals(127, Verifiable.exactLimit(DataType.INT8));
        assertEquals(255, Verifiable.exactLimit(DataType.UINT8));
        assertEquals(2_147_483_648L, Verifiable.exactLimit(DataType.INT32), "wider integers capped at 2^31");
    }

    /**
     * Exactness in any order: inputs are non-negative integers, so every partial sum of any subset is at most the
     * full sum; when the full sum is at most the type's exact-integer limit (every integer 0..limit is
     * representable, see NumberCodecTest.roundTripEveryExactSmallInteger), every partial sum in every order is
     * exact. Checked for all types and several rank counts, forwards and backwards.
     */
    @Test
    void sumsAreExactInEveryOrder() {
        for (DataType t : DataType.values()) {
            for (int n : new int[] {1, 2, 7, 8, 64, 512}) {
                Verifiable v = new Verifiable(RedOp.SUM, t, n);
                for (int i = 0; i < v.period(); i++) {
                    double fwd = 0;
                    double bwd = 0;
                    for (int r = 0; r < n; r++) {
                        assertTrue(v.input(r, i) >= 0);
                        fwd += v.input(r, i);
                        bwd += v.input(n - 1 - r, i);
                    }
                    assertEquals(v.reduced(i), fwd, t + " n=" + n);
                    assertEquals(fwd, bwd);
                    assertTrue(v.reduced(i) <= Verifiable.exactLimit(t));
                }
            }
        }
    }

    /** Products: exactly one rank per element contributes 1 + i % 3, every other rank 1. */
    @Test
    void productsAreSmall() {
        Verifiable v = new Verifiable(RedOp.PROD, DataType.F8E5M2, 16);
        for (int i = 0; i < v.period(); i++) {
            assertEquals(1 + ((37L * i) % 257) % 3, v.reduced(i));
        }
        // i = 1: k = 37; values (37 + 11 r) % 8 for r = 0..3 are 5, 0, 3, 6 -> max 6, min 0, sum 14
        Verifiable mx = new Verifiable(RedOp.MAX, DataType.INT32, 4);
        assertEquals(6, mx.reduced(1));
        assertEquals(0, new Verifiable(RedOp.MIN, DataType.INT32, 4).reduced(1));
        // integer avg truncates: 14 / 4 = 3; float avg 3.5
        assertEquals(3, new Verifiable(RedOp.AVG, DataType.INT32, 4).reduced(1));
        assertEquals(3.5, new Verifiable(RedOp.AVG, DataType.FLOAT, 4).reduced(1));
    }

    @Test
    void patternFillAndCheckFindEveryCorruptedElement() {
        Verifiable v = new Verifiable(RedOp.SUM, DataType.HALF, 3);
        int es = 2;
        byte[] period = encode(v.reducedPeriod(), DataType.HALF);
        ByteBuffer buf = ByteBuffer.allocate(1000 * es).order(ByteOrder.LITTLE_ENDIAN);
        PatternIo.fill(buf, period, es, 5, 1000);
        buf.flip();
        assertEquals(0, PatternIo.countWrong(buf.duplicate().order(ByteOrder.LITTLE_ENDIAN), period,
                v.reducedPeriod(), DataType.HALF, v, 5, 1000));
        buf.put(2 * 17, (byte) 0x55);
        buf.put(2 * 999 + 1, (byte) 0x7C);
        assertEquals(2, PatternIo.countWrong(buf.duplicate().order(ByteOrder.LITTLE_ENDIAN), period,
                v.reducedPeriod(), DataType.HALF, v, 5, 1000));
        // wrong phase: most elements differ
        assertTrue(PatternIo.countWrong(buf.duplicate().order(ByteOrder.LITTLE_ENDIAN), period, v.reducedPeriod(),
                DataType.HALF, v, 6, 1000) > 500);
    }

    @Test
    void avgOnFloatsAllowsTwoUnitsInTheLastPlace() {
        Verifiable v = new Verifiable(RedOp.AVG, DataType.BFLOAT16, 3);
        assertTrue(v.needsTolerance());
        // bfloat16 has 7 fraction bits: around 2.33 (exponent 1) one unit is 2^(1-7) = 1/64
        assertTrue(v.matches(7.0 / 3 + 2.0 / 64, 7.0 / 3));
        assertFalse(v.matches(7.0 / 3 + 3.0 / 64, 7.0 / 3));
        assertFalse(new Verifiable(RedOp.SUM, DataType.FLOAT, 3).matches(1.0000001, 1.0));
    }

    static byte[] encode(double[] values, DataType t) {
        ByteBuffer b = ByteBuffer.allocate(values.length * t.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : values) {
            NumberCodec.put(b, t, x);
        }
        return b.array();
    }
}
