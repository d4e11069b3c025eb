package dev.collsim.validation.diagnose;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.env.NcclVariable;
import dev.collsim.hardware.GpuModel;
import dev.collsim.nccl.Collective;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Too few channels: point-to-point collectives (AllToAll, SendRecv) across hosts with at most 2 p2p channels per
 * peer (NCCL's NCCL_NCHANNELS_PER_NET_PEER default; one NIC flow each, too few to fill a NIC), collectives with
 * fewer than 8 channels on NVSwitch hosts (NCCL normally runs 16-32 there: NCCL 2.30 {@code connect.cc}
 * doubles the search's channels), and NCCL_MAX_NCHANNELS/NCCL_MAX_CTAS set below 8.
 */
final class ChannelCheck implements Check {

    @Override
    public List<Finding> run(Subject s) {
        List<Finding> out = new ArrayList<>();
        Dataset d = s.dataset();
        Optional<NcclLog.ChannelCounts> c = d.log().lastChannelCounts();
        boolean p2pColl = d.collective() == Collective.ALL_TO_ALL || d.collective() == Collective.SEND_RECV;
        if (c.isPresent() && p2pColl && !s.singleHost() && c.get().p2pPerPeer() <= 2) {
            out.add(s.finding(Finding.Kind.TOO_FEW_CHANNELS, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                    "only %d p2p channels per peer (%d p2p channels in all): each pair of ranks on different hosts "
                            + "moves its %s traffic over %d connections, too few to fill the NICs; raise "
                            + "NCCL_NCHANNELS_PER_NET_PEER (e.g. 4) and check NCCL_MIN_P2P_NCHANNELS",
                    c.get().p2pPerPeer(), c.get().p2p(), d.collective().testName(), c.get().p2pPerPeer()),
                    List.of(s.at(c.get().line()))));
        }
        if (c.isPresent() && !p2pColl && s.gpu().map(GpuModel::nvSwitch).orElse(false) && c.get().coll() < 8) {
            out.add(s.finding(Finding.Kind.TOO_FEW_CHANNELS, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                    "%d collective channels on %s hosts with NVSwitch: each channel is one ring/tree served by one "
                            + "thread block, and NVSwitch hosts need 16 or more to reach link bandwidth",
                    c.get().coll(), s.gpu().get().name()), List.of(s.at(c.get().line()))));
        }
        NcclSettings env = s.ncclSettings();
        for (NcclVariable k : new NcclVariable[] {NcclVariable.NCCL_MAX_NCHANNELS, NcclVariable.NCCL_MAX_CTAS}) {
            if (env.isSet(k) && env.maxChannels() < 8) {
                out.add(s.finding(Finding.Kind.TOO_FEW_CHANNELS, Finding.Severity.PROBLEM, k.name() + "="
                        + env.maxChannels() + " caps the run at " + env.maxChannels() + " channels; each channel is"
                        + " driven by one thread block, so large transfers cannot reach link bandwidth",
                        List.of(s.header("env"))));
            }
        }
        return out;
    }
}
