package dev.collsim.simulator.network;

import java.util.Arrays;

/**
 * Max-min fair rates by progressive filling (Bertsekas and Gallager, <i>Data Networks</i>, 2nd ed., section
 * 6.5.2): all flows' rates rise together; when a link fills, the flows crossing it are frozen at the current
 * level, and the others keep rising. A flow may cross a link with a share below 1 (split over parallel paths) and
 * may stand for {@code weight} identical flows (aggregation): the link then carries
 * {@code sum of weight x share x rate}. A heap of link fill levels with lazy invalidation gives
 * O(I log I) for I (flow, link) pairs. Not thread-safe (scratch arrays sized to the link count).
 */
final class MaxMinFairShare {

    private final double[] capacity;
    private final double[] remaining;
    private final double[] weight;
    private final int[] version;
    private final int[] start;
    private final int[] fill;
    private final boolean[] mark;
    private final int[] touchedLinks;
    private int[] flowsOnLink = new int[0];
    private double[] heapLevel = new double[16];
    private int[] heapLink = new int[16];
    private int[] heapVersion = new int[16];
    private int heapSize;

    /** @param capacity capacity of every link, bytes per microsecond (not copied; read only) */
    MaxMinFairShare(double[] capacity) {
        this.capacity = capacity;
        int n = capacity.length;
        remaining = new double[n];
        weight = new double[n];
        version = new int[n];
        start = new int[n + 1];
        fill = new int[n];
        mark = new boolean[n];
        touchedLinks = new int[n];
    }

    /**
     * Computes the rate of each flow.
     *
     * @param flows  flows, each with its route and weight (number of identical flows it stands for)
     * @param count  number of flows used from the array
     * @param rate   output: rate of one member of each flow, bytes per microsecond
     */
    void solve(SimFlow[] flows, int count, double[] rate) {
        int nLinks = capacity.length;
        Arrays.fill(start, 0);
        int pairs = 0;
        for (int f = 0; f < count; f++) {
            Route r = flows[f].route;
            for (int i = 0; i < r.size(); i++) {
                start[r.link(i) + 1]++;
            }
            pairs += r.size();
        }
        for (int l = 0; l < nLinks; l++) {
            start[l + 1] += start[l];
        }
        if (flowsOnLink.length < pairs) {
            flowsOnLink = new int[Math.max(pairs, flowsOnLink.length * 2)];
        }
        System.arraycopy(start, 0, fill, 0, nLinks);
        Arrays.fill(weight, 0);
        for (int f = 0; f < count; f++) {
            Route r = flows[f].route;
            rate[f] = -1;
            for (int i = 0; i < r.size(); i++) {
                int l = r.link(i);
                flowsOnLink[fill[l]++] = f;
                weight[l] += flows[f].weight * r.share(i);
            }
        }
        heapSize = 0;
        for (int l = 0; l < nLinks; l++) {
            if (weight[l] > 0) {
                remaining[l] = capacity[l];
                version[l]++;
                push(remaining[l] / weight[l], l, version[l]);
            }
        }
        fillFrom(flows, count, rate, 0);
    }

    /**
     * Recomputes the rates after flows were removed, exactly, without redoing the filling below the lowest rate of
     * the removed flows. Progressive filling up to level {@code level} is unchanged by removing flows whose rates
     * were all {@code >= level}: a removed flow crosses no link that filled below its own rate, and removing it only
     * lowers the load of its links; so every flow with a rate below {@code level} keeps it, and filling restarts at
     * {@code level} with those flows frozen. With AllToAll's many distinct finish times, the flows that finish are
     * the fastest ones, so each restart touches only the few flows at or above their rate.
     *
     * @param flows  the flows still present, each with its route and weight; no flow was added since the last
     *               {@link #solve} or {@code resolveAbove}
     * @param count  number of flows used from the array
     * @param rate   input: each flow's rate from the previous call (same order); output: the new rates, bytes per
     *               microsecond
     * @param level  the lowest rate, bytes per microsecond, of the flows removed since the previous call
     */
    void resolveAbove(SimFlow[] flows, int count, double[] rate, double level) {
        int nLinks = capacity.length;
        Arrays.fill(start, 0);
        System.arraycopy(capacity, 0, remaining, 0, nLinks);
        Arrays.fill(weight, 0);
        int pairs = 0;
        int open = 0;
        for (int f = 0; f < count; f++) {
            Route r = flows[f].route;
            double w = flows[f].weight;
            if (rate[f] < level) {
                double load = w * rate[f];
                for (int i = 0; i < r.size(); i++) {
                    remaining[r.link(i)] -= load * r.share(i);
                }
            } else {
                rate[f] = -1;
                open++;
                for (int i = 0; i < r.size(); i++) {
                    int l = r.link(i);
                    start[l + 1]++;
                    weight[l] += w * r.share(i);
                }
                pairs += r.size();
            }
        }
        if (open == 0) {
            return;
        }
        for (int l = 0; l < nLinks; l++) {
            start[l + 1] += start[l];
        }
        if (flowsOnLink.length < pairs) {
            flowsOnLink = new int[Math.max(pairs, flowsOnLink.length * 2)];
        }
        System.arraycopy(start, 0, fill, 0, nLinks);
        for (int f = 0; f < count; f++) {
            if (rate[f] < 0) {
                Route r = flows[f].route;
                for (int i = 0; i < r.size(); i++) {
                    int l = r.link(i);
                    flowsOnLink[fill[l]++] = f;
                }
            }
        }
        heapSize = 0;
        for (int l = 0; l < nLinks; l++) {
            if (weight[l] > 0) {
                remaining[l] = Math.max(0, remaining[l]);
                version[l]++;
                push(Math.max(level, remaining[l] / weight[l]), l, version[l]);
            }
        }
        fillFrom(flows, count, rate, count - open);
    }

    /** Progressive filling from the heap of link levels until every flow is frozen. */
    private void fillFrom(SimFlow[] flows, int count, double[] rate, int alreadyFrozen) {
        int frozen = alreadyFrozen;
        while (frozen < count && heapSize > 0) {
            int l = heapLink[0];
            double level = heapLevel[0];
            int ver = heapVersion[0];
            pop();
            if (ver != version[l]) {
                continue;
            }
            int touched = 0;
            for (int k = start[l]; k < start[l + 1]; k++) {
                int f = flowsOnLink[k];
                if (rate[f] >= 0) {
                    continue;
                }
                rate[f] = level;
                frozen++;
                Route r = flows[f].route;
                for (int i = 0; i < r.size(); i++) {
                    int l2 = r.link(i);
                    double w = flows[f].weight * r.share(i);
                    remaining[l2] = Math.max(0, remaining[l2] - w * level);
                    weight[l2] -= w;
                    if (!mark[l2]) {
                        mark[l2] = true;
                        touchedLinks[touched++] = l2;
                    }
                }
            }
            for (int t = 0; t < touched; t++) {
                int l2 = touchedLinks[t];
                mark[l2] = false;
                version[l2]++;
                if (weight[l2] > 1e-12) {
                    push(Math.max(level, remaining[l2] / weight[l2]), l2, version[l2]);
                } else {
                    weight[l2] = 0;
                }
            }
        }
    }

    private void push(double level, int link, int ver) {
        if (heapSize == heapLevel.length) {
            heapLevel = Arrays.copyOf(heapLevel, heapSize * 2);
            heapLink = Arrays.copyOf(heapLink, heapSize * 2);
            heapVersion = Arrays.copyOf(heapVersion, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int p = (i - 1) / 2;
            if (heapLevel[p] <= level) {
                break;
            }
            set(i, heapLevel[p], heapLink[p], heapVersion[p]);
            i = p;
        }
        set(i, level, link, ver);
    }

    private void pop() {
        heapSize--;
        if (heapSize == 0) {
            return;
        }
        double level = heapLevel[heapSize];
        int link = heapLink[heapSize];
        int ver = heapVersion[heapSize];
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
            set(i, heapLevel[c], heapLink[c], heapVersion[c]);
            i = c;
        }
        set(i, level, link, ver);
    }

    private void set(int i, double level, int link, int ver) {
        heapLevel[i] = level;
        heapLink[i] = link;
        heapVersion[i] = ver;
    }
}
