package dev.collsim.validation.compare;

import dev.collsim.hardware.CpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Topology;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclRelease;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * NCCL's default P2P level on AMD hosts changed in NCCL 2.23: up to 2.22 {@code ncclTopoCheckP2p} started from SYS
 * ("In general, use P2P whenever we can") and lowered it to PXB only on Intel, ARM and Zhaoxin CPUs, so GPUs of an AMD
 * x86 host used P2P at every distance; from 2.23 it starts from PXB and keeps SYS only for at most two GPUs on AMD
 * (NCCL {@code src/graph/paths.cc} at tags v2.22.3-1 and v2.23.4-1). collsim models NCCL 2.28/2.30, so a run made with
 * an older NCCL on an AMD host is modelled with NCCL_P2P_LEVEL=SYS, the level its NCCL used: its GPU pairs through the
 * CPU used P2P, not SHM. Older means the release the run is taken to have used ({@link HeaderNcclVersion#release}:
 * the one the file states, else the one current at its {@code #@ date}, {@code NcclRelease.currentAt}, or at the
 * date such a value starts with before a remark in parentheses, {@code NcclRelease.leadingDate}, e.g.
 * {@code 2023-07 (nvidia-smi on the page: Fri Jul 14 2023)}) is below 2.23 (tagged 2024-09-16: a date up to 2024-08,
 * or a year alone up to 2024, read as its 30 June, is older). When neither settles it (no version; no date, a range
 * or words), the header's word decides: a header naming P2P as the way the GPUs reach each other ("P2P enabled", "P2P via ...") is read as the
 * run's transport, which on an AMD host of more than two GPUs only an NCCL before 2.23 (or NCCL_P2P_LEVEL) gives;
 * without it the run stays on collsim's NCCL. Stateless.
 */
public final class OlderAmdP2p {

    private static final Pattern HEADER_P2P = Pattern.compile("\\bp2p (enabled|via)\\b");
    /** First NCCL minor release with the PXB default on AMD hosts of more than two GPUs. */
    private static final int FIRST_PXB_MINOR = 23;

    private OlderAmdP2p() {
    }

    /**
     * @param d        the dataset
     * @param topo     the guessed cluster
     * @param settings the run's settings; NCCL_P2P_LEVEL=SYS is added to it when the rule applies
     * @return the assumption line when the setting was added
     */
    public static Optional<String> apply(Dataset d, Topology topo, Map<String, String> settings) {
        if (settings.containsKey("NCCL_P2P_DISABLE") || settings.containsKey("NCCL_P2P_LEVEL") || !amd(topo)
                || headerNamesOtherCpu(d)) {
            return Optional.empty();
        }
        Optional<String> why = older(d);
        if (why.isEmpty()) {
            return Optional.empty();
        }
        settings.put("NCCL_P2P_LEVEL", "SYS");
        return Optional.of("NCCL before 2.23 (" + why.get() + ") on AMD CPUs: modelled as NCCL_P2P_LEVEL=SYS, its"
                + " default there (P2P between every GPU pair, not SHM)");
    }

    /** @return why the run's NCCL is older than 2.23 (its version, or its date), or empty when that is not known */
    static Optional<String> older(Dataset d) {
        if (d.ncclRelease().known()) {
            return d.ncclRelease().before(FIRST_PXB_MINOR) ? Optional.of("NCCL " + d.ncclRelease())
                    : Optional.empty();
        }
        String date = d.header().text("date");
        NcclRelease dated = HeaderNcclVersion.release(d);
        String lead = NcclRelease.leadingDate(date).trim();
        if (dated.known()) {
            return dated.before(FIRST_PXB_MINOR)
                    ? Optional.of("version not given, run dated " + lead + ": NCCL " + dated + " then")
                    : Optional.empty();
        }
        String pcie = (d.header().text("interconnect") + " " + d.header().text("hardware")).toLowerCase(Locale.ROOT);
        if (HEADER_P2P.matcher(pcie).find()) {
            return Optional.of("version not given, date '" + (date == null ? "" : date.trim())
                    + "' not placing it, header naming P2P between the GPUs");
        }
        return Optional.empty();
    }

    /**
     * A catalog host built from the GPU model carries the catalog's CPUs (a DGX A100's AMD EPYC), which need not be the
     * run's: the ABCI Compute Node (A) files' hardware line names two Intel Xeon Platinum 8360Y under the same
     * A100-SXM4-40GB GPUs. The header's word on the CPU wins.
     *
     * @return true when the header's hardware line names a CPU of the database whose vendor is not AMD
     */
    static boolean headerNamesOtherCpu(Dataset d) {
        return CpuModels.find(d.header().text("hardware")).map(m -> !m.vendor().toLowerCase(Locale.ROOT)
                .contains("amd")).orElse(false);
    }

    private static boolean amd(Topology topo) {
        List<Cpu> cpus = topo.graph().vertexSet().stream().filter(Cpu.class::isInstance).map(Cpu.class::cast).toList();
        return !cpus.isEmpty() && cpus.stream().allMatch(c -> c.vendor().toLowerCase(Locale.ROOT).contains("amd")
                && c.arch().startsWith("x86"));
    }
}
