package dev.collsim.reports.plan;

/**
 * How global ranks map to (tp, cp, pp, dp) coordinates; the first named dimension varies fastest, so tensor-parallel
 * groups are consecutive ranks (one host when {@code tp <= GPUs per host}), and context-parallel ranks come next, as
 * in Megatron-Core's order tp-cp-ep-dp-pp.
 */
public enum RankOrder {
    /** {@code rank = t + tp (c + cp (p + pp d))}: TP inside a host, then CP, PP, then DP (collsim's default). */
    TP_PP_DP("tp-pp-dp"),
    /** {@code rank = t + tp (c + cp (d + dp p))}: Megatron-Core's default order tp-cp-ep-dp-pp. */
    TP_DP_PP("tp-dp-pp");

    /** A coordinate axis: tensor-parallel index, context-parallel index, pipeline stage, data-parallel index. */
    public enum Axis {
        /** Tensor-parallel index. */ T,
        /** Context-parallel index. */ C,
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
     * @param c context-parallel index
     * @param p pipeline stage
     * @param d data-parallel index
     * @param job the layout
     * @return the global rank
     */
    public int rank(int t, int c, int p, int d, TrainingJob job) {
        int outer = this == TP_PP_DP ? p + job.pp() * d : d + job.dp() * p;
        return t + job.tp() * (c + job.cp() * outer);
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
