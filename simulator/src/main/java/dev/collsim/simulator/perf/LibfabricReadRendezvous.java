package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import java.util.Locale;
import java.util.Optional;

/**
 * The rendezvous of each network send on the EFA hosts whose plugin runs its SENDRECV protocol over an RDMA-read
 * device (A100 p4d, p4de: {@link LibfabricEagerCopy#provider}): a Tree/Simple connection's sends follow one another,
 * each paying the class's hop latency before its bytes move at the connection's share of the NICs' line rate, so the
 * network rate of a call of k sends per connection is the line rate x k m / (k m + (k - 1) t0 r), where m is the
 * bytes of a send, t0 the hop latency ({@link NetClassProfile#hopLatencyUs}, 20 us on EFA) and r the connection's
 * share of the node's NIC rate (node rate / channels, at most one NIC's). The first send's latency is the crossing's
 * own ({@link NetHops#latencyCharges}), charged in the latency term; the later k - 1 are charged here. Where it
 * applies it takes the place of the class's line-rate share ({@link NetClassProfile#bwFraction}).
 *
 * <p>What the source shows (ofiwg/libfabric v1.22.0, {@code prov/efa}): aws-ofi-nccl's SENDRECV protocol posts each
 * NCCL network send as one tagged message ({@code fi_tsend}, aws/aws-ofi-nccl v1.13.2-aws
 * {@code src/nccl_ofi_sendrecv.c}); a message from CUDA memory above the eager payload is a read message
 * ({@code efa_rdm_msg.c efa_rdm_msg_select_rtm}; {@code efa_hmem.c}: {@code min_read_msg_size} is the eager payload +
 * 1 for {@code FI_HMEM_CUDA}), a long read whenever another read message of the domain is in flight
 * ({@code efa_rdm_peer.c efa_rdm_peer_select_readbase_rtm}): the sender's request packet reaches the receiver, which
 * matches it to a posted receive and reads the data from the sender's memory ({@code efa_rdm_ope_post_read}), then
 * returns an end-of-read packet that completes the send. So no byte of a message moves before a request has crossed
 * and its read has been posted: a round trip per message that an RDMA write (InfiniBand, and aws-ofi-nccl's RDMA
 * protocol on p5) does not have. The source does not say that these round trips are serial on a connection; the
 * measured times do (below), so the serial form is a reading of two runs, with the hop latency read on four runs'
 * floors (none of these mid sizes) as its only figure: nothing here is fitted.
 *
 * <p>Measured (Tree/Simple, 8 channels, 2 channels per 100 Gb/s NIC, 6.25 GB/s line rate per connection; per chunk
 * and channel = the time over the chunks each channel sends, less about 220 us of fill and latency): p4de, NCCL 2.17.1,
 * whose chunks NCCL halves (A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt lines 55-62):
 * 64 KiB chunks 30.6 us at 16 MiB (line 56), 128 KiB 39-42 us at 32-64 MiB (lines 57-58), 256 KiB 60 us at 128 MiB
 * (line 59), 512 KiB 100-112 us at 256 MiB-1 GiB (lines 60-62); 20 us + m / 6.25 GB/s gives 30.5, 41.0, 61.9, 103.9.
 * p4d, NCCL 2.23.4, whole 512 KiB chunks (A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt lines 68-75):
 * each added chunk per channel 93-106 us from 8 MiB to 1 GiB. The class's former line-rate share 0.82, read on the
 * two runs' 1 GiB, is this rule at 512 KiB sends: 524288 / (524288 + 20 us x 6.25 GB/s) = 0.807.
 *
 * <p>Not charged: Ring (its network steps wait on the ring's step order, which NCCL's latency charges per step), LL
 * and LL128 (their sends fit the eager payload), p3dn (no RDMA read: libfabric's long-CTS protocol, host staging; not
 * checked) and p5 (the RDMA-write protocol, no rendezvous per message). Stateless and thread-safe.
 */
public final class LibfabricReadRendezvous {

    private LibfabricReadRendezvous() {
    }

    /**
     * @param plan     channel plan
     * @param a        algorithm
     * @param p        protocol
     * @param runMinor the run's NCCL 2 minor release
     * @return true when each later send of a connection pays its own rendezvous: Tree/Simple between nodes on the
     *         EFA hosts of {@link LibfabricEagerCopy#provider}
     */
    static boolean applies(ChannelPlan plan, Algorithm a, Protocol p, int runMinor) {
        return a == Algorithm.TREE && p == Protocol.SIMPLE && LibfabricEagerCopy.provider(plan, runMinor).isPresent();
    }

    /**
     * The share of the NICs' line rate a call's network moves at (the place of the class's bwFraction).
     *
     * @param plan        channel plan (node NIC rate, NICs per node)
     * @param s           NCCL settings (NCCL_BUFFSIZE)
     * @param pp          performance parameters (the class's hop latency)
     * @param func        collective
     * @param nBytes      bytes of the call
     * @param effChannels channels the call's data occupies, &gt;= 1
     * @param channels    NCCL's channels for the call
     * @param runMinor    the run's NCCL 2 minor release
     * @return the share, in (0, 1]
     */
    static double lineShare(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func, long nBytes,
            double effChannels, int channels, int runMinor) {
        double ch = Math.max(1.0, effChannels);
        double send = Math.max(1.0, LibfabricEagerCopy.sendBytes(plan, s, func, Algorithm.TREE, nBytes, ch, channels,
                runMinor));
        double sends = Math.ceil(nBytes / ch / send - 1e-9);
        if (sends <= 1) {
            return 1;
        }
        double connGBps = plan.nodeNetBw() / Math.max(ch, plan.nicsPerNode());
        double waitBytes = (sends - 1) * pp.netProfile(plan.netClass()).hopLatencyUs() * 1000.0 * connGBps;
        return sends * send / (sends * send + waitBytes);
    }

    /**
     * The line predict and compare print where the rule applies.
     *
     * @param plan     channel plan
     * @param pp       performance parameters of the prediction (the class's hop latency)
     * @param runMinor the run's NCCL 2 minor release
     * @return the note, or empty
     */
    public static Optional<String> note(ChannelPlan plan, PerformanceParameters pp, int runMinor) {
        double hopUs = pp.netProfile(plan.netClass()).hopLatencyUs();
        return LibfabricEagerCopy.provider(plan, runMinor).map(pr -> String.format(Locale.ROOT, "each later"
                + " Tree/Simple network send of a connection waits its own libfabric read rendezvous (%.0f us, the"
                + " class's hop latency) before its bytes move at the full line rate", hopUs));
    }
}
