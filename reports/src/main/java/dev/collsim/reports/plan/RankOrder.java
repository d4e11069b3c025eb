package dev.collsim.reports.plan;

/**
 * How global ranks map to (tp, pp, dp) coordinates; the first named dimension varies fastest, so tensor-parallel
 * groups are consecutive ranks (one host when {@code tp <= GPUs per host}).
 */
public enum RankOrder {
    /** {@code rank = t + tp (p + pp d)}: TP inside a host, then PP, then DP across hosts (collsim's default). */
    TP_PP_DP("tp-pp-dp"),
    /** {@code rank = t + tp (d + dp p)}: Megatron-Core's default order (tp-cp-ep-dp-pp without cp). */
    TP_DP_PP("tp-dp-pp");

    /** A coordinate axis: tensor-parallel index, pipeline stage, data-parallel index. */
    public enum Axis {
        /** Tensor-parallel index. */ T,
        /** Pipeline stage. */ P,
        /** Data-parallel index. */ D
    }

    private final String text;

    RankOrder(String text) {
        this.text = text;
    }

    /** @return the spelling users type, e.g. {@code tp-pp-dp} */
    public String text() {
        return text;
    }

    /**
     * @param t tensor-parallel index
     * @param p pipeline stage
     * @param d data-parallel index
     * @param job the layout
     * @return the global rank
     */
    public int rank(int t, int p, int d, TrainingJob job) {
        return this == TP_PP_DP ? t + job.tp() * (p + job.pp() * d) : t + job.tp() * (d + job.dp() * p);
    }

    /** @throws IllegalArgumentException naming the allowed spellings */
    public static RankOrder parse(String s) {
        for (RankOrder o : values()) {
            if (o.text.equalsIgnoreCase(s.trim())) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown rank order '" + s + "'; allowed: tp-pp-dp, tp-dp-pp");
    }
}
