package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
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
        Dataset d = Corpus.read(NOT_STARTED).get(0);
        Map<String, String> settings = new HashMap<>(d.env());
        assertEquals("1", settings.get("NCCL_COLLNET_ENABLE"));
        assertEquals(Optional.of("CollNet off as the NCCL log says (line 26): NCCL_COLLNET_ENABLE=1 modelled as 0"
                + " (NCCL went on without it)"), RunSettings.collNetOffFromLog(d, settings));
        assertEquals("0", settings.get("NCCL_COLLNET_ENABLE"));
    }

    /** The ABCI SHARP run, whose log does not say CollNet failed, keeps it; a run that did not ask is left alone. */
    @Test
    void aRunWhoseCollNetStartedKeepsIt() throws Exception {
        Dataset sharp = Corpus.read("A-allreduce-2x8xA100-40GB-abci-anode-hdr-sharp-collnet-nccl2.8.txt").get(0);
        Map<String, String> settings = new HashMap<>(sharp.env());
        assertTrue(RunSettings.collNetOffFromLog(sharp, settings).isEmpty());
        assertEquals("1", settings.get("NCCL_COLLNET_ENABLE"));
        Dataset d = Corpus.read(NOT_STARTED).get(0);
        Map<String, String> none = new HashMap<>();
        assertTrue(RunSettings.collNetOffFromLog(d, none).isEmpty());
        assertTrue(none.isEmpty());
    }
}
