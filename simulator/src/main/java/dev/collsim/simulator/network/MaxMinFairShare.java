package dev.collsim.simulator.network;

import java.util.Arrays;

/**
 * Max-min fair rates by progressive filling (Bertsekas and Gallager, <i>Data Networks</i>, 2nd ed., section
 * 6.5.2): all flows' rates rise together; when a link fills, the flows crossing it are frozen at the current
 * level, and the others keep rising. A flow may cross a link with a share below 1 (split over parallel paths) and
 * may stand for {@code weight} identical flows (aggregation): the link then carries
 * {@code sum of weight x share x rate}. A heap of link fill levels, each link in it once and re-keyed lazily when
 * popped (levels only rise), gives O(I + L log L) for I (flow, link) pairs on L links.
 *
 * <p>Incremental recomputation (exact): after flows are {@linkplain #remove removed}, {@link #resolve} restarts the
 * filling at the lowest rate L of the removed flows. Filling below L is unchanged by the removal: a removed flow
 * crosses no link that filled below its own rate, and removing it only lowers the load of its links. So every flow
 * with a rate below L keeps it, and only the flows at or above L (and their links) are refilled, starting at level
 * L, from each link's capacity less the load of the flows kept. The solver keeps the flows sorted by rate (the
 * order in which filling froze them) and each link's load, so a recomputation costs O(I' log I') for the I'
 * (flow, link) pairs of the flows at or above L. In AllToAll the flows that finish are the fastest ones, so I' is
 * small. Not thread-safe; one instance follows one simulation.
 */
final class MaxMinFairShare {

    private final double[] capacity;
    /** Per link: sum over present flows of weight x share x rate, bytes per microsecond. */
    private final double[] load;
    /** Per link: its index among the links being refilled, or -1. */
    private final int[] local;
    private final int[] linkId;
    private final double[] remaining;
    private final double[] weight;
    private final int[] start;
    private final int[] fill;
    private int[] flowsOnLink = new int[0];
    private SimFlow[] cand = new SimFlow[64];
    private boolean[] frozenCand = new boolean[64];
    private SimFlow[] order = new SimFlow[64];
    private int orderSize;
    private SimFlow[] changed = new SimFlow[64];
    private int changedCount;
    private double removedLevel = Double.POSITIVE_INFINITY;
    private double[] heapLevel = new double[16];
    private int[] heapLink = new int[16];
    private int heapSize;

    /** @param capacity capacity of every link, bytes per microsecond (not copied; read only) */
    MaxMinFairShare(double[] capacity) {
        this.capacity = capacity;
        int n = capacity.length;
        load = new double[n];
        local = new int[n];
        Arrays.fill(local, -1);
        linkId = new int[n];
        remaining = new double[n];
        weight = new double[n];
        start = new int[n + 1];
        fill = new int[n];
    }

    /**
     * Computes the rate of each flow from scratch at time 0; the flows become the solver's present set.
     *
     * @param flows  flows, each with its route and weight (number of identical flows it stands for)
     * @param count  number of flows used from the array
     * @param rate   output: rate of one member of each flow, bytes per microsecond (also left in
     *               {@link SimFlow#rate})
     */
    void solve(SimFlow[] flows, int count, double[] rate) {
        solve(flows, count, 0);
        for (int f = 0; f < count; f++) {
            rate[f] = flows[f].rate;
        }
    }

    /**
     * Computes the rate of each flow from scratch into {@link SimFlow#rate} (through {@link SimFlow#rerate}, so
     * each flow's sent bytes are accounted at its old rate up to {@code now}); the flows become the present set.
     *
     * @param flows flows, each with its route and weight
     * @param count number of flows used from the array
     * @param now   current time, microseconds
     */
    void solve(SimFlow[] flows, int count, double now) {
        Arrays.fill(load, 0);
        orderSize = 0;
        changedCount = 0;
        removedLevel = Double.POSITIVE_INFINITY;
        ensureCand(count);
        for (int f = 0; f < count; f++) {
            flows[f].gone = false;
            cand[f] = flows[f];
        }
        refill(count, 0, false, now);
    }

    /** Removes a present flow (finished); rates are updated at the next {@link #resolve}. */
    void remove(SimFlow f) {
        Route r = f.route;
        for (int i = 0; i < r.size(); i++) {
            load[r.link(i)] -= f.weight * r.share(i) * f.rate;
        }
        f.gone = true;
        removedLevel = Math.min(removedLevel, f.rate);
    }

    /** Same as {@link #resolve(double)} at time 0. */
    void resolve() {
        resolve(0);
    }

    /**
     * Recomputes {@link SimFlow#rate} of the present flows after {@link #remove}s (and no flow added since the last
     * {@link #solve}): exactly the rates {@link #solve} would give, refilling only from the lowest removed rate up.
     * The flows whose rate changed are listed by {@link #changed}.
     *
     * @param now current time, microseconds (flows whose rate changes account their bytes sent until then)
     */
    void resolve(double now) {
        changedCount = 0;
        double level = removedLevel;
        removedLevel = Double.POSITIVE_INFINITY;
        if (level == Double.POSITIVE_INFINITY) {
            return;
        }
        int lo = 0;
        int hi = orderSize;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order[mid].rate < level) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int n = 0;
        ensureCand(orderSize - lo);
        for (int k = lo; k < orderSize; k++) {
            if (!order[k].gone) {
                cand[n++] = order[k];
            }
        }
        orderSize = lo;
        refill(n, level, true, now);
    }

    /** @return number of flows whose rate changed in the last {@link #solve} or {@link #resolve} */
    int changedCount() {
        return changedCount;
    }

    /** @param i index below {@link #changedCount()}; @return that changed flow */
    SimFlow changed(int i) {
        return changed[i];
    }

    /**
     * Progressive filling of the {@code n} candidates from {@code level}, every other present flow frozen (its
     * load already in {@link #load}). Link fill levels only rise as flows freeze (a flow frozen at level x on a
     * link whose level is y >= x leaves it at (R - wx) / (W - w) >= y), so the heap holds each link once and a
     * popped entry whose level is stale is pushed again at its current level (lazy increase-key).
     */
    private void refill(int n, double level, boolean incremental, double now) {
        int nLocal = indexLinks(n, incremental);
        indexFlowsOnLinks(n, nLocal);
        seedHeap(nLocal, level, incremental);
        ensureOrder(orderSize + n);
        ensureChanged(changedCount + n);
        double water = level;
        int frozen = 0;
        while (frozen < n && heapSize > 0) {
            int j = heapLink[0];
            double lvl = heapLevel[0];
            pop();
            if (weight[j] <= 1e-12) {
                continue;
            }
            double current = Math.max(water, remaining[j] / weight[j]);
            if (current > lvl) {
                push(current, j);
                continue;
            }
            lvl = current;
            water = lvl;
            for (int k = start[j]; k < start[j + 1]; k++) {
                int c = flowsOnLink[k];
                if (frozenCand[c]) {
                    continue;
                }
                frozenCand[c] = true;
                SimFlow f = cand[c];
                if (f.rerate(lvl, now)) {
                    changed[changedCount++] = f;
                }
                order[orderSize++] = f;
                frozen++;
                Route r = f.route;
                for (int i = 0; i < r.size(); i++) {
                    int j2 = local[r.link(i)];
                    double w = f.weight * r.share(i);
                    load[r.link(i)] += w * lvl;
                    remaining[j2] = Math.max(0, remaining[j2] - w * lvl);
                    weight[j2] -= w;
                }
            }
        }
        for (int j = 0; j < nLocal; j++) {
            local[linkId[j]] = -1;
        }
    }

    /**
     * Gives each link the candidates cross a dense local index, summing their weights (and, when incremental, the
     * load they carry now) and counting the (flow, link) pairs per link in {@code start[j + 1]}.
     *
     * @return the number of distinct links
     */
    private int indexLinks(int n, boolean incremental) {
        int nLocal = 0;
        for (int c = 0; c < n; c++) {
            SimFlow f = cand[c];
            frozenCand[c] = false;
            Route r = f.route;
            for (int i = 0; i < r.size(); i++) {
                int l = r.link(i);
                int j = local[l];
                if (j < 0) {
                    j = nLocal++;
                    local[l] = j;
                    linkId[j] = l;
                    weight[j] = 0;
                    remaining[j] = 0;
                    start[j + 1] = 0;
                }
                double w = f.weight * r.share(i);
                weight[j] += w;
                if (incremental) {
                    remaining[j] += w * f.rate;
                }
                start[j + 1]++;
            }
        }
        return nLocal;
    }

    /** Lists the candidates of each local link contiguously ({@code flowsOnLink[start[j] .. start[j + 1])}). */
    private void indexFlowsOnLinks(int n, int nLocal) {
        start[0] = 0;
        for (int j = 0; j < nLocal; j++) {
            start[j + 1] += start[j];
        }
        int pairs = start[nLocal];
        if (flowsOnLink.length < pairs) {
            flowsOnLink = new int[Math.max(pairs, flowsOnLink.length * 2)];
        }
        System.arraycopy(start, 0, fill, 0, nLocal);
        for (int c = 0; c < n; c++) {
            Route r = cand[c].route;
            for (int i = 0; i < r.size(); i++) {
                flowsOnLink[fill[local[r.link(i)]]++] = c;
            }
        }
    }

    /** Frees the candidates' share of each link's load and pushes every link at its fill level. */
    private void seedHeap(int nLocal, double level, boolean incremental) {
        heapSize = 0;
        for (int j = 0; j < nLocal; j++) {
            int l = linkId[j];
            if (incremental) {
                load[l] -= remaining[j];
                remaining[j] = Math.max(0, capacity[l] - load[l]);
            } else {
                remaining[j] = capacity[l];
            }
            push(Math.max(level, remaining[j] / weight[j]), j);
        }
    }

    private void ensureChanged(int n) {
        if (changed.length < n) {
            changed = Arrays.copyOf(changed, Math.max(n, changed.length * 2));
        }
    }

    private void ensureCand(int n) {
        if (cand.length < n) {
            cand = new SimFlow[Math.max(n, cand.length * 2)];
            frozenCand = new boolean[cand.length];
        }
    }

    private void ensureOrder(int n) {
        if (order.length < n) {
            order = Arrays.copyOf(order, Math.max(n, order.length * 2));
        }
    }

    private void push(double level, int link) {
        if (heapSize == heapLevel.length) {
            heapLevel = Arrays.copyOf(heapLevel, heapSize * 2);
            heapLink = Arrays.copyOf(heapLink, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int p = (i - 1) / 2;
            if (heapLevel[p] <= level) {
                break;
            }
            set(i, heapLevel[p], heapLink[p]);
            i = p;
        }
        set(i, level, link);
    }

    private void pop() {
        heapSize--;
        if (heapSize == 0) {
            return;
        }
        double level = heapLevel[heapSize];
        int link = heapLink[heapSize];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= heapSize) {
                break;
            }
            if (c + 1 < heapSize && heapLevel[c + 1] < heapLevel[c]) {
                c++;
            }
            if (heapLevel[c] >= level) {
                break;
            }
            set(i, heapLevel[c], heapLink[c]);
            i = c;
        }
        set(i, level, link);
    }

    private void set(int i, double level, int link) {
        heapLevel[i] = level;
        heapLink[i] = link;
    }
}
