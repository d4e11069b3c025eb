package dev.collsim.validation.diagnose;

import dev.collsim.hardware.GpuModels;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.RankInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Slow ranks and placement: one process much slower than the others in nccl-tests' per-process times (-I, JSON),
 * an uneven number of ranks per host (the host with more ranks is the slow one of every ring step), and fewer
 * ranks per host than the host has GPUs (pods or jobs that split a host: ranks of the same machine then talk over
 * the network).
 */
final class PlacementCheck implements Check {

    /** A count before a name, {@code 8x ...}: the name runs to the next comma, semicolon, plus or parenthesis. */
    private static final Pattern COUNT_X_NAME = Pattern.compile("(\\d+)\\s*x\\s*([^,;+()]+)",
            Pattern.CASE_INSENSITIVE);

    @Override
    public List<Finding> run(Subject s) {
        Dataset d = s.dataset();
        for (var n : d.notes()) {
            if (n.text().startsWith("slow process")) {
                return List.of(s.finding(Finding.Kind.SLOW_RANK_OR_HOST, Finding.Severity.PROBLEM, n.text()
                        + ": every step of a collective waits for the slowest rank; check that GPU's clocks and "
                        + "temperature, its PCIe link and NIC, and other load on its host",
                        List.of(new Finding.Evidence(d.file(), 0, "out_of_place_per_iter.per_process_max_times_us"))));
            }
        }
        if (d.ranks().isEmpty()) {
            return List.of();
        }
        Map<String, Integer> perHost = new LinkedHashMap<>();
        for (RankInfo r : d.ranks()) {
            perHost.merge(r.host(), 1, Integer::sum);
        }
        int min = perHost.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        int max = perHost.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        if (min != max) {
            return List.of(s.finding(Finding.Kind.SLOW_RANK_OR_HOST, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                    "ranks are spread unevenly over hosts (%s): the host with %d ranks carries more traffic per NIC "
                            + "and slows every step", perHost, max), List.of(s.at(d.ranks().get(0).line()))));
        }
        int hw = gpusPerMachine(d.header().text("hardware"));
        if (hw > 0 && perHost.size() > 1) {
            if (max < hw && perHost.size() > Math.max(1, d.nRanks() / hw)) {
                return List.of(s.finding(Finding.Kind.SLOW_RANK_OR_HOST, Finding.Severity.INFO,
                        String.format(Locale.ROOT, "%d ranks run as %d groups of %d although each machine has %d "
                                + "GPUs: if groups (pods, containers, VMs) share a machine, their ranks talk over the "
                                + "network instead of NVLink, and GPU-NIC affinity may be lost", d.nRanks(),
                                perHost.size(), max, hw), List.of(s.at(d.ranks().get(0).line()), s.header("hardware"))));
            }
        }
        return List.of();
    }

    /**
     * @param hardware a header's hardware text, e.g. {@code "2 servers x 8x A100-SXM4-80GB"}; null allowed
     * @return the count before the first GPU name the GPU database recognises ({@link GpuModels#find}), 0 when
     *         none (or the count does not fit an int)
     */
    static int gpusPerMachine(String hardware) {
        if (hardware == null) {
            return 0;
        }
        Matcher m = COUNT_X_NAME.matcher(hardware);
        int from = 0;
        while (from < hardware.length() && m.find(from)) {
            if (GpuModels.find(m.group(2)).isPresent() && m.group(1).length() < 10) {
                return Integer.parseInt(m.group(1));
            }
            from = m.start(2);
        }
        return 0;
    }
}
