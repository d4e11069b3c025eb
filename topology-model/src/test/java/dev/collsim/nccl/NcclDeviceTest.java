package dev.collsim.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NcclDeviceTest {

    /**
     * By hand from NCCL 2.30.7 {@code src/include/device.h}: an LL line is a 16-byte {@code ncclLLFifoLine} with two
     * 4-byte data words (8 of 16 bytes); an LL128 line is NCCL_LL128_LINEELEMS = 128 / 8 = 16 words of which
     * NCCL_LL128_DATAELEMS = 15 carry data (15/16 = 0.9375).
     */
    @Test
    void dataPerLineByte() {
        assertEquals(0.5, NcclDevice.dataPerLineByte(Protocol.LL), 0);
        assertEquals(0.9375, NcclDevice.dataPerLineByte(Protocol.LL128), 0);
        assertEquals(1.0, NcclDevice.dataPerLineByte(Protocol.SIMPLE), 0);
    }

    /**
     * NCCL's default buffers ({@code src/init.cc}): Simple 4 MiB, LL 512 KiB, LL128 4,915,200 B; each / NCCL_STEPS 8
     * is a step of 524,288, 65,536 and 614,400 B. {@code calcCollChunking}'s data per step: LL 65,536 / 2 = 32,768;
     * LL128 614,400 x 15 / 16 = 576,000. A step of 1,000 B LL128: 1,000 x 15 / 16 = 937.5, NCCL's integer 937.
     */
    @Test
    void defaultStepsAndTheirData() {
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(524_288, s.stepBytes(Protocol.SIMPLE));
        assertEquals(65_536, s.stepBytes(Protocol.LL));
        assertEquals(614_400, s.stepBytes(Protocol.LL128));
        assertEquals(32_768, NcclDevice.stepDataBytes(Protocol.LL, s.stepBytes(Protocol.LL)));
        assertEquals(576_000, NcclDevice.stepDataBytes(Protocol.LL128, s.stepBytes(Protocol.LL128)));
        assertEquals(524_288, NcclDevice.stepDataBytes(Protocol.SIMPLE, s.stepBytes(Protocol.SIMPLE)));
        assertEquals(937, NcclDevice.stepDataBytes(Protocol.LL128, 1_000));
    }

    /** NCCL_LL128_BUFFSIZE = 1,048,576 set: its step 131,072 B, NCCL_BUFFSIZE untouched (524,288). */
    @Test
    void aSetBufferIsThatProtocolsStep() {
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_LL128_BUFFSIZE", "1048576"));
        assertEquals(131_072, s.stepBytes(Protocol.LL128));
        assertEquals(1_048_576, s.buffSize(Protocol.LL128));
        assertEquals(524_288, s.stepBytes(Protocol.SIMPLE));
    }
}
