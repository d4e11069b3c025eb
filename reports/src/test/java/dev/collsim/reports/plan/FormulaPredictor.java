package dev.collsim.reports.plan;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.CollectivePredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Test-only predictor with a stated formula, so plan tests check the plan's own arithmetic, not the simulator:
 * {@code time = 5 us + BusBandwidth.factor(n) x S / B}, where B is the GPU's NVLink bandwidth when all ranks sit in one
 * host, and otherwise {@code min(H, g x one NIC)}: H the host's total NIC bandwidth and g the group's members on
 * rank 0's host (a ring crosses each host boundary once; one GPU drives one NIC).
 */
public final class FormulaPredictor implements CollectivePredictor {

    /** Fixed latency per call, microseconds. */
    static final double LATENCY_US = 5;

    @Override
    public Prediction predict(PredictionRequest r) {
        Gpu first = r.ranks().get(0);
        boolean oneHost = r.ranks().stream().allMatch(g -> g.host() == first.host());
        double bw;
        if (oneHost) {
            bw = r.topology().outgoing(first).stream().filter(l -> l.type() == LinkType.NVLINK)
                    .mapToDouble(l -> l.bandwidth().gbps()).sum();
        } else {
            Map<Integer, Integer> perHost = new HashMap<>();
            r.ranks().forEach(g -> perHost.merge(g.host(), 1, Integer::sum));
            double[] nics = r.topology().devices(Nic.class).stream().filter(n -> n.host() == first.host())
                    .mapToDouble(n -> n.speed().gbps()).toArray();
            double total = Arrays.stream(nics).sum();
            bw = Math.min(total, perHost.get(first.host()) * nics[0]);
        }
        double factor = BusBandwidth.factor(r.collective(), r.nRanks());
        double t = LATENCY_US + factor * r.sizeBytes() / (bw * 1000.0);
        double algBw = r.sizeBytes() / (t * 1000.0);
        return new Prediction(r.collective(), r.sizeBytes(), r.nRanks(), Algorithm.RING, Protocol.SIMPLE, 1, t, algBw,
                algBw * factor, -1, bw, oneHost ? "NVLink" : "NIC");
    }
}
