package dev.collsim.nccl.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.topology.PathType;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** NCCL variable parsing; allowed values and defaults from NCCL 2.30.7 {@code docs/userguide/source/env.rst}. */
class NcclSettingsTest {

    @Test
    void defaultsAreNcclDefaults() {
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(1, s.minChannels());
        assertEquals(64, s.maxChannels());
        assertEquals(4L << 20, s.buffSize());
        assertEquals(640, s.ll128NThreads());
        assertEquals(2, s.nvlsEnable());
        assertEquals(AlgoProtoFilter.State.DEFAULT, s.proto().state(Collective.ALL_REDUCE, Protocol.LL128));
    }

    @Test
    void inclusiveListForcesListedOnAndOthersOff() {
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_ALGO", "Tree,RING"));
        assertEquals(AlgoProtoFilter.State.ON, s.algo().state(Collective.ALL_REDUCE, Algorithm.TREE));
        assertEquals(AlgoProtoFilter.State.ON, s.algo().state(Collective.BROADCAST, Algorithm.RING));
        assertEquals(AlgoProtoFilter.State.OFF, s.algo().state(Collective.ALL_REDUCE, Algorithm.NVLS));
    }

    /**
     * A misspelt algorithm or protocol gets NearestName's suggestion: 'Rng' is 1 edit from 'Ring' (3 <= 4),
     * 'Simpel' 1 from 'Simple' (one swap of adjacent letters) and 'Rnig' 1 from 'Ring' (one swap); 'Rxyz' is 3
     * replacements from 'Ring' and farther from the others (9 > 4), too far, so it gets none.
     */
    @Test
    void aMisspeltNameSuggestsTheNearest() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NcclSettings.parse(Map.of("NCCL_ALGO",
                "Rng"))).getMessage().endsWith("optional func: prefix); did you mean 'Ring'?"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NcclSettings.parse(Map.of("NCCL_PROTO",
                "^Simpel"))).getMessage().endsWith("; did you mean 'Simple'?"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NcclSettings.parse(Map.of("NCCL_ALGO",
                "Rnig"))).getMessage().endsWith("; did you mean 'Ring'?"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NcclSettings.parse(Map.of("NCCL_ALGO",
                "Rxyz"))).getMessage().endsWith("optional func: prefix)"));
    }

    @Test
    void exclusionLeavesOthersAtDefaultAndFunctionPartsOverride() {
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_ALGO", "^nvls;allgather:ring,pat"));
        assertEquals(AlgoProtoFilter.State.OFF, s.algo().state(Collective.ALL_REDUCE, Algorithm.NVLS));
        assertEquals(AlgoProtoFilter.State.DEFAULT, s.algo().state(Collective.ALL_REDUCE, Algorithm.TREE));
        assertEquals(AlgoProtoFilter.State.ON, s.algo().state(Collective.ALL_GATHER, Algorithm.PAT));
        assertEquals(AlgoProtoFilter.State.OFF, s.algo().state(Collective.ALL_GATHER, Algorithm.NVLS));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "NCCL_ALGO|ring,bogus|bogus",
        "NCCL_ALGO|sendrecv:ring|unknown function",
        "NCCL_PROTO|LL;;Simple|empty part",
        "NCCL_NTHREADS|100|multiple of 32",
        "NCCL_NTHREADS|1024|[64, 512]",
        "NCCL_MAX_CTAS|0|[1, 64]",
        "NCCL_BUFFSIZE|lots|size in bytes",
        "NCCL_P2P_LEVEL|NEAR|PXB",
        "NCCL_NVLS_ENABLE|yes|0, 1 or 2"})
    void malformedValuesNameTheVariableAndTheAllowedValues(String name, String value, String hint) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of(name, value)));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertTrue(e.getMessage().contains(hint), e.getMessage());
    }

    /**
     * NCCL_P2P_READ_ENABLE (NCCL 2.30.7 src/transport/p2p.cc, NCCL_PARAM default -2 = the topology decides): unset
     * is empty, 0 write, 1 read; 2 and "yes" (which NCCL's strtoll would read as read and as write) are refused,
     * naming the variable and the values 0 and 1.
     */
    @Test
    void p2pReadEnableIsZeroOrOne() {
        assertTrue(NcclSettings.DEFAULTS.p2pReadEnable().isEmpty());
        assertFalse(NcclSettings.parse(Map.of("NCCL_P2P_READ_ENABLE", "0")).p2pReadEnable().orElseThrow());
        assertTrue(NcclSettings.parse(Map.of("NCCL_P2P_READ_ENABLE", "1")).p2pReadEnable().orElseThrow());
        for (String bad : new String[] {"2", "yes"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NcclSettings.parse(Map.of("NCCL_P2P_READ_ENABLE", bad)));
            assertTrue(e.getMessage().contains("NCCL_P2P_READ_ENABLE='" + bad + "'"), e.getMessage());
            assertTrue(e.getMessage().contains("allowed: 0 (P2P write) or 1 (P2P read)"), e.getMessage());
        }
    }

    /**
     * The socket transport's variables (NCCL 2.30.7 src/transport/net_socket.cc): unset by default (NCCL picks by
     * the NIC's vendor); NCCL_SOCKET_NTHREADS 0..16 (MAX_THREADS), NCCL_NSOCKS_PERTHREAD 1..64 (MAX_SOCKETS).
     */
    @Test
    void socketThreadsAndSocketsAreReadWithNcclsLimits() {
        assertTrue(NcclSettings.DEFAULTS.socketNThreads().isEmpty());
        assertTrue(NcclSettings.DEFAULTS.nSocksPerThread().isEmpty());
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_SOCKET_NTHREADS", "4", "NCCL_NSOCKS_PERTHREAD", "8"));
        assertEquals(4, s.socketNThreads().orElseThrow());
        assertEquals(8, s.nSocksPerThread().orElseThrow());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_SOCKET_NTHREADS", "17")));
        assertTrue(e.getMessage().contains("NCCL_SOCKET_NTHREADS") && e.getMessage().contains("[0, 16]"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NcclSettings.parse(Map.of("NCCL_NSOCKS_PERTHREAD", "0")));
    }

    /**
     * NCCL_WORK_FIFO_BYTES as NCCL 2.27.3 src/init.cc keeps it: default 1 << 20; 0 passes the power-of-two test
     * (0 &amp; -1 = 0) and is kept; 3000 is not a power of two, so NCCL warns and keeps 1 MiB; at most 1 << 30.
     */
    @Test
    void workFifoBytesFollowsNcclsChecks() {
        assertEquals(1L << 20, NcclSettings.DEFAULTS.workFifoBytes());
        assertEquals(0, NcclSettings.parse(Map.of("NCCL_WORK_FIFO_BYTES", "0")).workFifoBytes());
        assertEquals(1L << 20, NcclSettings.parse(Map.of("NCCL_WORK_FIFO_BYTES", "3000")).workFifoBytes());
        assertEquals(1L << 30, NcclSettings.parse(Map.of("NCCL_WORK_FIFO_BYTES", "4294967296")).workFifoBytes());
        assertThrows(IllegalArgumentException.class, () -> NcclSettings.parse(Map.of("NCCL_WORK_FIFO_BYTES", "-1")));
    }

    @Test
    void unknownVariableIsRejectedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_ALGOS", "ring")));
        assertTrue(e.getMessage().contains("NCCL_ALGOS"));
        assertTrue(e.getMessage().contains("NCCL_PROTO"));
    }

    @Test
    void valuesParse() {
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_MAX_NCHANNELS", "8", "NCCL_BUFFSIZE", "8388608",
                "NCCL_P2P_LEVEL", "2", "NCCL_NET_GDR_LEVEL", "phb", "NCCL_NET_OVERHEAD", "1500"));
        assertEquals(8, s.maxChannels());
        assertEquals(8L << 20, s.buffSize());
        assertEquals(PathType.PXB, s.p2pLevel().orElseThrow());
        assertEquals(PathType.PHB, s.netGdrLevel().orElseThrow());
        assertEquals(1.5, s.netOverheadUs().orElseThrow(), 1e-12);
    }

    /** NCCL 2.30 {@code src/graph/paths.cc}: NCCL_NET_GDR_C2C default 1, NCCL_NET_GDR_READ default -2 (per GPU). */
    @Test
    void gdrSettingsParseWithNcclDefaults() {
        NcclSettings none = NcclSettings.parse(Map.of());
        assertTrue(none.netGdrC2c());
        assertTrue(none.netGdrRead().isEmpty());
        assertTrue(none.netGdrLevel().isEmpty());
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_NET_GDR_C2C", "0", "NCCL_NET_GDR_READ", "0"));
        assertFalse(s.netGdrC2c());
        assertFalse(s.netGdrRead().orElseThrow());
        assertTrue(NcclSettings.parse(Map.of("NCCL_NET_GDR_READ", "1")).netGdrRead().orElseThrow());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_NET_GDR_READ", "yes")));
        assertTrue(e.getMessage().contains("NCCL_NET_GDR_READ='yes'"), e.getMessage());
    }

    /**
     * NCCL 2.30.7 reads NCCL_IB_HCA ({@code src/transport/net_ib}) and NCCL_SOCKET_IFNAME; collsim models neither: a
     * pasted environment keeps them, left out of the settings with one warning line. A near miss of a modelled name
     * stays an error with its did-you-mean.
     */
    @Test
    void ncclVariablesCollsimDoesNotModelAreToldApartFromTypos() {
        NcclSettings pasted = NcclSettings.parse(Map.of("NCCL_SOCKET_IFNAME", "eth0", "NCCL_IB_HCA", "mlx5_0",
                "NCCL_ALGO", "Ring"));
        assertEquals(NcclSettings.parse(Map.of("NCCL_ALGO", "Ring")), pasted);
        assertEquals("NCCL_ALGO=Ring", pasted.label());
        assertEquals(Optional.of("NCCL_IB_HCA, NCCL_SOCKET_IFNAME: not modelled by collsim; the prediction is NCCL's"
                + " behaviour without them"), pasted.passedOverWarning());
        assertEquals(Optional.of("NCCL_IB_HCA: not modelled by collsim; the prediction is NCCL's behaviour without it"),
                NcclSettings.parse(Map.of("NCCL_IB_HCA", "mlx5_0")).passedOverWarning());
        assertEquals(Optional.empty(), NcclSettings.parse(Map.of("NCCL_ALGO", "Ring")).passedOverWarning());
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_ALOG", "Ring")));
        assertTrue(typo.getMessage().startsWith("unknown NCCL variable 'NCCL_ALOG' (NCCL 2.30.7 reads no variable of"
                + " that name; did you mean 'NCCL_ALGO'?)"), typo.getMessage());
        // "NCCL_ALOG" is 2 edits from "NCCL_ALGO" (two swapped letters; 9 characters: 2 x 3 <= 9): an error.
        // "NCCL_XYZZY_QUUX" (15 characters) is 9 edits from its nearest modelled name, NCCL_CROSS_NIC (Levenshtein
        // worked out apart from collsim, a dynamic-programming table over the 37 names), above a third of 15: passed
        // over like NCCL_IB_HCA. "NCCL_IB_HCA" is 5 edits from its nearest, NCCL_MIN_CTAS (13 characters: 15 > 13);
        // "NCCL_SOCKET_IFNAME" 7 from NCCL_SOCKET_NTHREADS (20 characters: 21 > 20), a near call, still passed over.
        assertTrue(NcclVariable.passedOver("NCCL_XYZZY_QUUX"));
        assertTrue(NcclVariable.passedOver("NCCL_IB_HCA"));
        assertTrue(NcclVariable.passedOver("NCCL_SOCKET_IFNAME"));
        assertFalse(NcclVariable.passedOver("NCCL_ALOG"));
        assertFalse(NcclVariable.passedOver("NCCL_ALGO"), "a modelled name is parsed, not passed over");
        assertFalse(NcclVariable.passedOver("CUDA_VISIBLE_DEVICES"), "only NCCL_* names are passed over");
        assertThrows(IllegalArgumentException.class, () -> NcclSettings.parse(Map.of("UCX_TLS", "tcp")));
        assertTrue(NcclVariable.isNcclName("NCCL_SOCKET_IFNAME"));
        assertFalse(NcclVariable.isNcclName("NCCL_ALOG"));
    }

    /** The usual ways to make NCCL use sockets are the cluster's network in collsim: the refusal says how. */
    @Test
    void socketSwitchesPointToTheNetworkOption() {
        for (String name : new String[] {"NCCL_IB_DISABLE", "NCCL_NET"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NcclSettings.parse(Map.of(name, "1")));
            assertTrue(e.getMessage().contains("--network socket"), e.getMessage());
        }
    }

    @Test
    void everyModelledVariableIsOneNcclReads() {
        for (NcclVariable v : NcclVariable.values()) {
            assertTrue(NcclVariable.isNcclName(v.name()), v.name());
            assertTrue(v.source().startsWith("src/"), v.name());
        }
    }

    @Test
    void runSettingsCheckModelledValuesAndPassOtherNcclNames() {
        NcclVariable.checkForRun("NCCL_IB_HCA", "mlx5_0,mlx5_1");
        NcclVariable.checkForRun("NCCL_PROTO", "Simple");
        assertThrows(IllegalArgumentException.class, () -> NcclVariable.checkForRun("NCCL_PROTO", "Simpel"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NcclVariable.checkForRun("NCCL_ALOG", "Ring"));
        IllegalArgumentException p = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_ALOG", "Ring")));
        assertEquals(p.getMessage(), e.getMessage());
    }

    @Test
    void settingsAreEqualWhenTheSameTextsWereGiven() {
        NcclSettings a = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL"));
        NcclSettings b = NcclSettings.parse(new TreeMap<>(Map.of("NCCL_PROTO", "LL", "NCCL_ALGO", "Ring")));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals("NCCL_ALGO=Ring NCCL_PROTO=LL", a.label());
        assertEquals("", NcclSettings.DEFAULTS.label());
        assertEquals(NcclSettings.DEFAULTS, NcclSettings.parse(Map.of()));
    }

    /** A recorded run keeps what collsim models: NCCL_IB_HCA is not modelled, NCCL_NTHREADS=100 is not x32. */
    @Test
    void recordedRunKeepsOnlyModelledValidSettings() {
        NcclSettings s = NcclSettings.modelled(Map.of("NCCL_ALGO", "Ring", "NCCL_IB_HCA", "mlx5_0",
                "NCCL_NTHREADS", "100", "PATH", "/bin"));
        assertEquals(Map.of("NCCL_ALGO", "Ring"), s.asMap());
        assertEquals(NcclSettings.DEFAULTS, NcclSettings.modelled(null));
    }

    @Test
    void minAboveMaxIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_MIN_CTAS", "16", "NCCL_MAX_CTAS", "8")));
    }

    /**
     * NCCL 2.30.7 src/graph/connect.cc (ncclTopoPostset) caps the runtime channels at min(ncclMaxNchannels(),
     * config.maxCTAs) and duplicates them up to max(ncclMinNchannels(), config.minCTAs): both names together are
     * accepted, the smaller maximum (8) and the larger minimum (4) win. NVLS channels see the CTA limits only.
     */
    @Test
    void channelNamesAndCtaNamesTogetherTakeTheTighterLimit() {
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_MAX_NCHANNELS", "8", "NCCL_MAX_CTAS", "32",
                "NCCL_MIN_NCHANNELS", "2", "NCCL_MIN_CTAS", "4"));
        assertEquals(8, s.maxChannels());
        assertEquals(4, s.minChannels());
        assertEquals(32, s.maxCtas());
        assertEquals(4, s.minCtas());
        assertEquals(8, NcclSettings.parse(Map.of("NCCL_MAX_NCHANNELS", "16", "NCCL_MAX_CTAS", "8")).maxChannels());
        assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_MIN_NCHANNELS", "16", "NCCL_MAX_CTAS", "8")));
    }

    /**
     * NCCL 2.30.7 reads NCCL_BUFFSIZE through ncclLoadParam, i.e. strtoll(str, nullptr, 0) (src/misc/param.cc): "8M" is
     * 8 bytes to NCCL, 0x800000 is 8 MiB. So a suffix is refused with the number to write, and hex is read.
     */
    @Test
    void bufferSizesAreReadAsNcclReadsThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_BUFFSIZE", "8M")));
        assertTrue(e.getMessage().contains("write 8388608"), e.getMessage());
        assertEquals(8L << 20, NcclSettings.parse(Map.of("NCCL_BUFFSIZE", "0x800000")).buffSize());
        assertEquals(65536L, NcclSettings.parse(Map.of("NCCL_LL128_BUFFSIZE", "65536")).ll128BuffSize());
    }

}
