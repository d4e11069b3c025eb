package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run that asks for CollNet but whose log says it could not start ran without it: NCCL 2.23
 * {@code src/transport.cc} {@code ncclTransportCollNetCheck} prints the WARN {@code Cannot initialize CollNet, using
 * point-to-point network instead} and {@code src/init.cc} sets {@code comm->collNetSupport = 0}.
 */
class CollNetOffFromLogTest {

    private static final String NOT_STARTED =
            "D-info-allreduce-4x2xA100-80GB-cx6-ib-collnet-not-initialized-nccl2.23-issue-nccltests311.txt";

    /** nccl-tests#311's rerun: NCCL_COLLNET_ENABLE=1 echoed (line 25), rank 0's WARN line (line 26). */
    @Test
    void theWarnLineTurnsCollNetOff() throws Exception {
        CollNetRewrite.read(NOT_STARTED).assertRewrite(RunSettings::collNetOffFromLog, "CollNet off as the NCCL log"
                + " says (line 26): NCCL_COLLNET_ENABLE=1 modelled as 0 (NCCL went on without it)",
                "NCCL_COLLNET_ENABLE", "0");
    }

    /** The ABCI SHARP run, whose log does not say CollNet failed, keeps it; a run that did not ask is left alone. */
    @Test
    void aRunWhoseCollNetStartedKeepsIt() throws Exception {
        CollNetRewrite sharp = CollNetRewrite.read(
                "A-allreduce-2x8xA100-40GB-abci-anode-hdr-sharp-collnet-nccl2.8.txt");
        assertTrue(RunSettings.collNetOffFromLog(sharp.dataset(), sharp.settings()).isEmpty());
        assertEquals("1", sharp.settings().get("NCCL_COLLNET_ENABLE"));
        Map<String, String> none = new HashMap<>();
        assertTrue(RunSettings.collNetOffFromLog(CollNetRewrite.read(NOT_STARTED).dataset(), none).isEmpty());
        assertTrue(none.isEmpty());
    }
}
