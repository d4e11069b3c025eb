package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Bit patterns worked out by hand from the format definitions: 3 = 1.1b x 2^1. binary16: exponent 1+15 = 16 =
 * 10000b, fraction 1000000000b: 0 10000 1000000000 = 0x4200. bfloat16 = top half of float 3.0f (0x40400000) =
 * 0x4040. E4M3: exponent 1+7 = 1000b, fraction 100b: 0 1000 100 = 0x44. E5M2: exponent 1+15 = 10000b, fraction
 * 10b: 0 10000 10 = 0x42. 2048 = 2^11 in binary16: exponent 26 = 11010b: 0x6800. E4M3 max 0x7E = 1.75 x 2^8
 * = 448; 0x7F is NaN (OCP FP8 spec). E5M2 0x7C is +inf.
 */
class NumberCodecTest {

    @Test
    void smallFloatBitsByHand() {
        assertEquals(0x4200, NumberCodec.smallFloatBits(DataType.HALF, 3));
        assertEquals(0x4040, NumberCodec.smallFloatBits(DataType.BFLOAT16, 3));
        assertEquals(0x44, NumberCodec.smallFloatBits(DataType.F8E4M3, 3));
        assertEquals(0x42, NumberCodec.smallFloatBits(DataType.F8E5M2, 3));
        assertEquals(0x6800, NumberCodec.smallFloatBits(DataType.HALF, 2048));
        assertEquals(0x3C00, NumberCodec.smallFloatBits(DataType.HALF, 1));
        assertEquals(0, NumberCodec.smallFloatBits(DataType.HALF, 0));
        assertEquals(0x0001, NumberCodec.smallFloatBits(DataType.HALF, Math.scalb(1.0, -24))); // smallest subnormal
    }

    @Test
    void decodeSpecialValues() {
        assertEquals(448.0, NumberCodec.smallFloatValue(DataType.F8E4M3, 0x7E));
        assertTrue(Double.isNaN(NumberCodec.smallFloatValue(DataType.F8E4M3, 0x7F)));
        assertEquals(Double.POSITIVE_INFINITY, NumberCodec.smallFloatValue(DataType.F8E5M2, 0x7C));
        assertEquals(-2.0, NumberCodec.smallFloatValue(DataType.HALF, 0xC000));
        assertEquals(65504.0, NumberCodec.smallFloatValue(DataType.HALF, 0x7BFF));
    }

    @Test
    void roundTripEveryExactSmallInteger() {
        for (DataType t : DataType.values()) {
            long limit = Math.min(Verifiable.exactLimit(t), 4096);
            for (long v = 0; v <= limit; v++) {
                ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                NumberCodec.put(b, t, v);
                assertEquals(t.size(), b.position());
                b.flip();
                assertEquals((double) v, NumberCodec.get(b, t), t + " " + v);
            }
        }
    }

    @Test
    void inexactValueIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> NumberCodec.smallFloatBits(DataType.F8E5M2, 9));
    }
}
