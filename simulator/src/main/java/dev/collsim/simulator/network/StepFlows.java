package dev.collsim.simulator.network;

import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.Transfer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one step of a job into flows, merging transfers that share a route and a size into one flow of weight k
 * (max-min fairness gives identical flows identical rates, so this is exact). Shared by both backends so they
 * time the very same flows.
 */
final class StepFlows {

    private StepFlows() {
    }

    /**
     * @param job    the job the step belongs to
     * @param step   one of its steps
     * @param router the router (used by one thread at a time)
     * @return the route of each transfer, in the step's transfer order
     * @throws IllegalArgumentException when a transfer names a rank outside the job or cannot be routed
     */
    static Route[] routes(Job job, Step step, Router router) {
        List<Transfer> transfers = step.transfers();
        Route[] routes = new Route[transfers.size()];
        int n = job.ranks().size();
        int[] vertex = router.rankVertices(job.ranks());
        for (int i = 0; i < routes.length; i++) {
            Transfer t = transfers.get(i);
            if (t.src() >= n || t.dst() >= n) {
                throw new IllegalArgumentException("job " + job.name() + ", step '" + step.label() + "': transfer "
                        + t.src() + "->" + t.dst() + " names a rank outside [0, " + n + ")");
            }
            ChannelNets nets = job.nets();
            routes[i] = nets.isEmpty() ? router.route(vertex[t.src()], vertex[t.dst()], t.channel())
                    : router.route(vertex[t.src()], vertex[t.dst()], t.channel(), nets.exit(t.channel(), t.src()),
                            nets.entry(t.channel(), t.dst()));
        }
        return routes;
    }

    /**
     * @param routes the route of each transfer of the step ({@link #routes})
     * @param now    the step's start, microseconds: each flow activates after the step's own latency
     *               ({@link Step#latencyUs}) plus its route's
     * @return the step's flows, transfers with the same route object and size merged into one weighted flow
     */
    static List<SimFlow> build(int jobIndex, int stepIndex, Step step, long copy, Route[] routes, double now) {
        List<Transfer> transfers = step.transfers();
        double start = now + step.latencyUs();
        Map<Route, SimFlow> merged = new IdentityHashMap<>(2 * transfers.size());
        Map<Route, Map<Double, SimFlow>> otherSizes = null;
        List<SimFlow> out = new ArrayList<>(transfers.size());
        for (int i = 0; i < routes.length; i++) {
            Transfer t = transfers.get(i);
            Route r = routes[i];
            SimFlow first = merged.get(r);
            SimFlow f = null;
            if (first == null || first.bytes == t.bytes()) {
                f = first;
            } else {
                otherSizes = otherSizes == null ? new IdentityHashMap<>() : otherSizes;
                f = otherSizes.computeIfAbsent(r, k -> new HashMap<>(2)).get(t.bytes());
            }
            if (f == null) {
                f = new SimFlow(jobIndex, stepIndex, copy, t.src(), t.dst(), t.channel(), r, t.bytes(), start);
                if (first == null) {
                    merged.put(r, f);
                } else {
                    otherSizes.get(r).put(t.bytes(), f);
                }
                out.add(f);
            } else {
                f.weight++;
            }
        }
        return out;
    }

    /** Adds {@code copies} x the bytes the flows put on each link to {@code linkBytes}. */
    static void addLinkBytes(List<SimFlow> flows, double copies, double[] linkBytes) {
        for (SimFlow f : flows) {
            for (int i = 0; i < f.route.size(); i++) {
                linkBytes[f.route.link(i)] += copies * f.bytes * f.weight * f.route.share(i);
            }
        }
    }

    /** @return the {@code top} most utilized links over {@code timeUs}, most utilized first */
    static List<LinkUsage> busiest(NetworkModel m, double[] linkBytes, double timeUs, int top) {
        List<Integer> idx = new ArrayList<>();
        for (int l = 0; l < linkBytes.length; l++) {
            if (linkBytes[l] > 0) {
                idx.add(l);
            }
        }
        idx.sort((a, b) -> Double.compare(linkBytes[b] / m.capacity(b), linkBytes[a] / m.capacity(a)));
        List<LinkUsage> out = new ArrayList<>();
        for (int i = 0; i < Math.min(top, idx.size()); i++) {
            int l = idx.get(i);
            double u = timeUs > 0 ? linkBytes[l] / (m.capacity(l) * timeUs) : 0;
            out.add(new LinkUsage(m.link(l).id(), m.capacity(l) / 1000.0, linkBytes[l], u));
        }
        return out;
    }
}
