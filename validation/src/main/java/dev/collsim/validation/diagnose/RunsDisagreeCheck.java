package dev.collsim.validation.diagnose;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.GpuModel;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.DatasetKind;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Runs of the same collective on the same number of the same GPUs in one file that disagree: at some common size
 * of 256 KiB or more the other run reaches at least 1.5x this run's busbw (or, for runs whose table was elided,
 * 1.5x its 'Avg bus bandwidth'). Names the settings in which the runs differ.
 */
final class RunsDisagreeCheck implements Check {

    private static final long MIN_SIZE = 256 * 1024;
    private static final double RATIO = 1.5;

    /**
     * The words that name a virtual machine in a run's title: a VM's guest sees a PCIe tree of the hypervisor's
     * making, so NCCL's topology detection can lose the GPU-NIC affinity and the GPUDirect RDMA paths of the host
     * (NCCL's documentation, Troubleshooting, 'PCI Access Control Services (ACS)' and NCCL_TOPO_FILE in 'Environment
     * Variables', which loads a topology that the guest cannot detect).
     */
    private static final Pattern VM = Pattern.compile("\\b(vms?|kvm|qemu|virtual machines?|guests?|"
            + "(full[- ])?pass-?through)\\b");

    /**
     * A title that says the link runs without forward error correction ("FEC encoding: None", "FEC off"): Ethernet
     * at 50 Gb/s per lane and above (PAM4; 200 and 400 GbE) carries RS(544,514) FEC in its PCS (IEEE 802.3 Clause 119,
     * 200GBASE-R and 400GBASE-R), so without it corrupted frames are dropped and RoCE resends them.
     */
    private static final Pattern NO_FEC = Pattern.compile("\\bfec\\b[^,;()]*\\b(none|off|disabled|no)\\b"
            + "|\\bno fec\\b");

    @Override
    public List<Finding> run(Subject s) {
        Dataset d = s.dataset();
        Finding best = null;
        double bestRatio = RATIO;
        for (Dataset o : s.siblings()) {
            if (o.collective() != d.collective() || o.nRanks() != d.nRanks() || !sameGpu(d, o)) {
                continue;
            }
            Optional<double[]> cmp = compare(d, o);
            if (cmp.isPresent() && cmp.get()[0] > bestRatio) {
                bestRatio = cmp.get()[0];
                best = finding(s, o, cmp.get());
            }
        }
        return best == null ? List.of() : List.of(best);
    }

    private static boolean sameGpu(Dataset a, Dataset b) {
        var ga = GpuModels.find(a.gpuModel()).map(GpuModel::name);
        var gb = GpuModels.find(b.gpuModel()).map(GpuModel::name);
        return ga.isPresent() ? ga.equals(gb) : Objects.equals(a.gpuModel(), b.gpuModel());
    }

    /** @return {ratio other/this, size or -1 for averages, this busbw, other busbw, this line, other line} */
    private static Optional<double[]> compare(Dataset d, Dataset o) {
        if (!d.points().isEmpty() && !o.points().isEmpty()) {
            TreeSet<Long> common = new TreeSet<>();
            d.points().forEach(p -> common.add(p.sizeBytes()));
            common.retainAll(o.points().stream().map(PerfPoint::sizeBytes).toList());
            double[] best = null;
            for (long size : common) {
                if (size < MIN_SIZE) {
                    continue;
                }
                PerfPoint a = find(d, size);
                PerfPoint b = find(o, size);
                double r = b.peakBusBw() / a.peakBusBw();
                if (best == null || r > best[0]) {
                    best = new double[] {r, size, a.peakBusBw(), b.peakBusBw(), a.line(), b.line()};
                }
            }
            return Optional.ofNullable(best);
        }
        if (!Double.isNaN(d.avgBusBw()) && !Double.isNaN(o.avgBusBw()) && d.kind() != DatasetKind.SUMMARY
                && (d.kind() == DatasetKind.FOOTER_ONLY || o.kind() == DatasetKind.FOOTER_ONLY)) {
            return Optional.of(new double[] {o.avgBusBw() / d.avgBusBw(), -1, d.avgBusBw(), o.avgBusBw(),
                    footerLine(d), footerLine(o)});
        }
        return Optional.empty();
    }

    private static int footerLine(Dataset d) {
        return d.line();
    }

    private static PerfPoint find(Dataset d, long size) {
        return d.points().stream().filter(p -> p.sizeBytes() == size).findFirst().orElseThrow();
    }

    /**
     * @return the tail of the message when no setting differs: the runs' titles, which then say what differs, and
     *         for a run in a VM against one that is not, what a VM changes
     */
    static String noSetting(Dataset d, Dataset o) {
        String here = d.label().toLowerCase(Locale.ROOT);
        String there = o.label().toLowerCase(Locale.ROOT);
        String titles = d.label().isBlank() || here.equals(there) ? "" : String.format(Locale.ROOT, ", only the runs'"
                + " titles ('%s' here), which name what differs", d.label());
        String vm = VM.matcher(here).find() && !VM.matcher(there).find() ? "; this run is in a virtual machine and"
                + " the other is not: the guest's PCIe tree is the hypervisor's, so NCCL can lose the GPU-NIC affinity"
                + " and GPUDirect RDMA paths of the host and spread the traffic over fewer NICs (give NCCL the host's"
                + " topology with NCCL_TOPO_FILE, check that every NIC is passed through, ACS and ATS)" : "";
        String fec = NO_FEC.matcher(here).find() && !NO_FEC.matcher(there).find() ? "; this run's link has no"
                + " forward error correction and the other's has: Ethernet at 50 Gb/s per lane and above (200 and"
                + " 400 GbE) needs RS-FEC, without it corrupted frames are dropped and resent (set the port's FEC"
                + " to RS on both ends)" : "";
        return "; the file names no NCCL setting that differs" + titles + vm + fec + ", so look at the fabric, the"
                + " placement"
                + " and the host state of the slower run";
    }

    private static Finding finding(Subject s, Dataset o, double[] c) {
        String where = c[1] < 0 ? "average busbw" : String.format(Locale.ROOT, "busbw at %d bytes", (long) c[1]);
        List<String> diff = new ArrayList<>();
        Map<String, String> a = s.dataset().env();
        Map<String, String> b = o.env();
        for (String k : new TreeSet<>(a.keySet())) {
            if (!Objects.equals(a.get(k), b.get(k))) {
                diff.add(k + "=" + a.get(k) + " here");
            }
        }
        for (String k : new TreeSet<>(b.keySet())) {
            if (!a.containsKey(k)) {
                diff.add(k + "=" + b.get(k) + " there");
            }
        }
        String msg = String.format(Locale.ROOT, "%s is %.2f GB/s here but %.2f GB/s in '%s' (%.1fx) "
                        + "on the same %d %s ranks%s", where, c[2], c[3], o.label(), c[0], s.dataset().nRanks(),
                s.gpu().map(GpuModel::name).orElse(s.dataset().gpuModel()),
                diff.isEmpty() ? noSetting(s.dataset(), o) : "; settings differ: " + String.join(", ", diff));
        return s.finding(Finding.Kind.RUNS_DISAGREE, Finding.Severity.PROBLEM, msg,
                List.of(s.at((int) c[4]), s.at((int) c[5])));
    }
}
