package dev.collsim.validation.diagnose;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.env.NcclVariable;
import dev.collsim.hardware.GpuModel;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.AlgoProtoFilter;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * NVLS off on hardware that supports it (NVSwitch, sm90+: NCCL 2.30 {@code tuning.cc} gates), and LL128 forced
 * with NCCL_PROTO where NCCL would not enable it itself (LL128 needs an NVLink intra-host path; an explicit
 * NCCL_PROTO bypasses that check: nccl-model §2.5).
 */
final class ProtocolCheck implements Check {

    @Override
    public List<Finding> run(Subject s) {
        List<Finding> out = new ArrayList<>();
        Dataset d = s.dataset();
        boolean nvlsColl = d.collective() == Collective.ALL_REDUCE || d.collective() == Collective.ALL_GATHER
                || d.collective() == Collective.REDUCE_SCATTER;
        if (s.gpu().map(GpuModel::nvls).orElse(false) && nvlsColl && d.gpusPerHost() >= 4) {
            List<Finding.Evidence> ev = new ArrayList<>();
            NcclSettings env = s.ncclSettings();
            if (env.isSet(NcclVariable.NCCL_NVLS_ENABLE) && env.nvlsEnable() == 0) {
                ev.add(s.header("env"));
            }
            d.log().lastChannelCounts().filter(c -> c.nvls() == 0 && c.coll() > 0).ifPresent(c -> ev.add(s.at(c.line())));
            d.log().flagged().stream().filter(n -> n.text().toLowerCase(Locale.ROOT).contains("nvls")
                    && n.text().toLowerCase(Locale.ROOT).contains("not")).findFirst().ifPresent(n -> ev.add(s.at(n.line())));
            if (!ev.isEmpty()) {
                out.add(s.finding(Finding.Kind.NVLS_OFF, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                        "NVLS (NVLink SHARP) is off on %s NVSwitch hosts: AllReduce then runs Ring/Tree, about "
                                + "370 GB/s busbw on H100 instead of about 470 with NVLS; check NCCL_NVLS_ENABLE, "
                                + "the fabric manager and CUDA multicast support", s.gpu().get().name()), ev));
            }
        }
        NcclSettings settings = s.ncclSettings();
        String proto = settings.proto().text();
        if (ll128Forced(settings, d.collective())) {
            boolean nvlinkPath = s.gpu().map(GpuModel::hasNvlink).orElse(true)
                    && d.log().transports().stream().noneMatch(t -> t.family().equals("SHM"));
            if (!nvlinkPath) {
                List<Finding.Evidence> ev = new ArrayList<>();
                ev.add(new Finding.Evidence(d.file(), d.header().line("env"), "NCCL_PROTO=" + proto));
                d.log().transports().stream().filter(t -> t.family().equals("SHM")).findFirst()
                        .map(NcclLog.TransportEdge::line).ifPresent(l -> ev.add(s.at(l)));
                out.add(s.finding(Finding.Kind.LL128_FORCED, Finding.Severity.PROBLEM,
                        "NCCL_PROTO forces LL128 on a path without NVLink (" + s.gpu().map(GpuModel::name)
                                .orElse(d.gpuModel()) + "): NCCL enables LL128 only on NVLink paths, because "
                                + "its 128-byte stores are not guaranteed to arrive in order over PCIe; results "
                                + "may be wrong and speed is not improved; remove LL128 from NCCL_PROTO", ev));
            }
        }
        return out;
    }

    /**
     * @return true when NCCL_PROTO lists LL128 without {@code ^} (state ON: NCCL then skips its own LL128 safety
     *         check, nccl-model §2.5) for the run's collective; for a collective NCCL's tuning does not cover
     *         (AllToAll, SendRecv, ...), for any collective the setting names
     */
    static boolean ll128Forced(NcclSettings settings, Collective c) {
        List<Collective> tuned = List.of(Collective.BROADCAST, Collective.REDUCE, Collective.ALL_GATHER,
                Collective.REDUCE_SCATTER, Collective.ALL_REDUCE);
        List<Collective> asked = tuned.contains(c) ? List.of(c) : tuned;
        return asked.stream().anyMatch(x -> settings.proto().state(x, Protocol.LL128) == AlgoProtoFilter.State.ON);
    }
}
