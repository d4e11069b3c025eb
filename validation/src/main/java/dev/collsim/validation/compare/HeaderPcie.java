package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a data file's header says about the PCIe side of a host without NVLink that a synthesized host cannot guess:
 * GPUs behind one PCIe switch ({@code nvidia-smi topo -m} PIX between them), and peer-to-peer access unsupported
 * ({@code nvidia-smi topo -p2p} NS, "P2P not supported"). Read from the {@code #@ interconnect} and
 * {@code #@ hardware} lines.
 */
public final class HeaderPcie {

    private static final Pattern ONE_SWITCH = Pattern.compile(
            "\\b(behind|under|on) (one|a single|the same) pcie switch\\b");
    private static final Pattern NO_P2P = Pattern.compile("\\bp2p (not supported|unavailable)\\b");

    private HeaderPcie() {
    }

    private static String text(Dataset d) {
        return (d.header().text("interconnect") + " " + d.header().text("hardware")).toLowerCase(Locale.ROOT);
    }

    /** @return true when the header puts the host's GPUs behind one PCIe switch */
    static boolean oneSwitch(Dataset d) {
        return ONE_SWITCH.matcher(text(d)).find();
    }

    /**
     * A host whose GPUs cannot reach each other peer to peer is modelled with {@code NCCL_P2P_DISABLE=1}: NCCL 2.30.7
     * {@code src/graph/paths.cc ncclTopoCheckP2p} sets p2p = 0 when NVML reports the pair's P2P read or write status
     * not OK, exactly as at P2P level LOC, so the pair's path is diverted through the CPU and the SHM transport
     * connects it ({@code src/transport/shm.cc}). Added only on one host with 2 or more ranks, and only where the run
     * set neither NCCL_P2P_DISABLE nor NCCL_P2P_LEVEL.
     *
     * @param d        the dataset
     * @param hosts    hosts of the guessed cluster
     * @param settings the run's settings; NCCL_P2P_DISABLE=1 is added to it when the rule applies
     * @return the assumption line when the setting was added
     */
    public static Optional<String> p2pOff(Dataset d, int hosts, Map<String, String> settings) {
        if (hosts != 1 || d.nRanks() < 2 || settings.containsKey("NCCL_P2P_DISABLE")
                || settings.containsKey("NCCL_P2P_LEVEL") || !NO_P2P.matcher(text(d)).find()) {
            return Optional.empty();
        }
        settings.put("NCCL_P2P_DISABLE", "1");
        return Optional.of("P2P not supported (read from the header): modelled as NCCL_P2P_DISABLE=1, as NCCL does when"
                + " NVML reports no P2P (GPU pairs through the CPU, SHM transport)");
    }
}
