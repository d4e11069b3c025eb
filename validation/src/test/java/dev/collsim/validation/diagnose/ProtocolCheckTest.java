package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * LL128 "forced" read from the typed NCCL_PROTO filter, with NCCL's syntax (2.24+, {@code src/graph/tuning.cc},
 * {@code docs/userguide/source/env.rst}: {@code [func:]list;func:list}, names case-insensitive, a leading {@code ^}
 * excludes the listed protocols): only a listing without {@code ^} forces LL128 past NCCL's NVLink check.
 */
class ProtocolCheckTest {

    private static boolean forced(String proto, Collective c) {
        return ProtocolCheck.ll128Forced(NcclSettings.modelled(Map.of("NCCL_PROTO", proto)), c);
    }

    @Test
    void listedWithoutCaretForces() {
        assertTrue(forced("LL128", Collective.ALL_REDUCE));
        assertTrue(forced("LL,LL128", Collective.ALL_GATHER));
        assertTrue(forced("ll128", Collective.ALL_REDUCE), "NCCL compares names case-insensitively");
    }

    @Test
    void excludedOrAbsentDoesNotForce() {
        assertFalse(forced("^LL128", Collective.ALL_REDUCE));
        assertFalse(forced("Simple", Collective.ALL_REDUCE));
        assertFalse(forced("^LL,LL128", Collective.ALL_REDUCE), "^ applies to the whole list");
        assertFalse(ProtocolCheck.ll128Forced(NcclSettings.DEFAULTS, Collective.ALL_REDUCE));
    }

    @Test
    void perCollectiveSyntaxAppliesToItsCollectiveOnly() {
        // the string check this replaces saw "LL128" in the text and called an AllGather run forced
        assertTrue(forced("allreduce:LL128", Collective.ALL_REDUCE));
        assertFalse(forced("allreduce:LL128", Collective.ALL_GATHER));
        assertTrue(forced("allreduce:LL128", Collective.ALL_TO_ALL), "no per-collective tuning: any listing counts");
    }
}
