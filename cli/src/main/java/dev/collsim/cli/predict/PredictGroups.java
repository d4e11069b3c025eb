package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.Candidate;
import dev.collsim.simulator.Prediction;
import java.util.ArrayList;
import java.util.List;

/**
 * The sweeps {@code collsim predict} prints, one per (datatype, op, root), from {@code -d}, {@code -o} and
 * {@code -r}, each a value or {@code all} as nccl-tests 2.19.6 reads them ({@code src/common.cu}: {@code -d all} every
 * type, {@code -o all} every reduction, {@code -r all} every root from 0 to nranks-1). The order is nccl-tests' loop
 * order: type outermost, then op, then root ({@code src/<coll>.cu} RunTest). A collective without a reduction prints
 * redop {@code none} and one op; one without a root prints root -1 and one root.
 */
final class PredictGroups {

    /**
     * One sweep.
     *
     * @param type the element type
     * @param op   the reduction (SUM for a collective without one)
     * @param root the root printed (-1 for a collective without one)
     * @param redop the redop column: the op's nccl-tests name, or {@code none}
     */
    record Group(DataType type, RedOp op, int root, String redop) {

        /**
         * @param p          the prediction of one size
         * @param nRanks     ranks
         * @param candidates eligible combinations (empty unless asked for)
         * @param linksBusBw the links column, GB/s; NaN for none
         * @return the output row, with nccl-tests' size and count columns
         */
        PredictRow row(Prediction p, int nRanks, List<Candidate> candidates, double linksBusBw) {
            CollGeometry g = CollGeometry.ofSize(p.collective(), p.sizeBytes(), type.size(), nRanks);
            if (g.sizeBytes(type.size()) == 0) {
                // a 0-byte row: nccl-tests 2.19.6 src/common.cu algbw = size / time = 0, busbw = algbw x factor = 0
                Prediction z = new Prediction(p.collective(), p.sizeBytes(), p.nRanks(), p.algorithm(), p.protocol(),
                        p.nChannels(), p.timeUs(), 0, 0, p.ncclEstimateUs(), p.physicalBoundBusBw(), p.bottleneck());
                return new PredictRow(z, 0, g.paramCount(), candidates, Double.isNaN(linksBusBw) ? linksBusBw : 0,
                        type.testName(), redop, root, false);
            }
            return new PredictRow(p, g.sizeBytes(type.size()), g.paramCount(), candidates, linksBusBw, type.testName(),
                    redop, root, false);
        }
    }

    private final Collective collective;
    private final List<DataType> types;
    private final List<RedOp> ops;
    private final boolean allRoots;
    private final int root;

    private PredictGroups(Collective c, List<DataType> types, List<RedOp> ops, boolean allRoots, int root) {
        this.collective = c;
        this.types = types;
        this.ops = ops;
        this.allRoots = allRoots;
        this.root = root;
    }

    /**
     * @param c        the collective
     * @param typeText {@code -d}: a type name or {@code all}
     * @param opText   {@code -o}: an op name or {@code all}
     * @param rootText {@code -r}: a rank or {@code all}
     * @return the sweeps to predict
     * @throws UserError (usage) naming the option and the allowed values
     */
    static PredictGroups parse(Collective c, String typeText, String opText, String rootText) {
        List<DataType> types = isAll(typeText) ? List.of(DataType.values())
                : List.of(UserError.usage(() -> DataType.parse(typeText)));
        List<RedOp> ops = isAll(opText) ? List.of(RedOp.values()) : List.of(UserError.usage(() -> RedOp.parse(opText)));
        boolean allRoots = isAll(rootText);
        int r = 0;
        if (!allRoots) {
            try {
                r = Integer.parseInt(rootText.trim());
            } catch (NumberFormatException e) {
                throw new UserError("-r (root): expected a rank number or all, got '" + rootText + "'",
                        ExitCodes.USAGE);
            }
        }
        return new PredictGroups(c, types, c.isReduction() ? ops : List.of(ops.get(0)), allRoots, r);
    }

    private static boolean isAll(String text) {
        return text.trim().equalsIgnoreCase("all");
    }

    /**
     * @param nRanks the ranks
     * @throws UserError (usage) when a rooted collective's root is not a rank
     */
    void checkRoot(int nRanks) {
        if (collective.isRooted() && !allRoots && (root < 0 || root >= nRanks)) {
            throw new UserError("-r (root) must be in [0, " + (nRanks - 1) + "] or all, got " + root, ExitCodes.USAGE);
        }
    }

    /**
     * @param nRanks the ranks (roots of {@code -r all})
     * @return the sweeps in nccl-tests' order (type, op, root)
     */
    List<Group> groups(int nRanks) {
        List<Group> out = new ArrayList<>();
        for (DataType t : types) {
            for (RedOp o : ops) {
                String redop = collective.isReduction() ? o.testName() : "none";
                if (!collective.isRooted()) {
                    out.add(new Group(t, o, -1, redop));
                } else if (allRoots) {
                    for (int r = 0; r < nRanks; r++) {
                        out.add(new Group(t, o, r, redop));
                    }
                } else {
                    out.add(new Group(t, o, root, redop));
                }
            }
        }
        return out;
    }

    /** @return how many distinct (type, op) pairs the sweeps have (roots do not change a prediction) */
    int distinctTypeOps() {
        return types.size() * ops.size();
    }

    /** @return the header's datatype: the type's name or {@code all} */
    String typeText() {
        return types.size() > 1 ? "all" : types.get(0).testName();
    }

    /** @return the header's op: the op's name, {@code all}, or {@code none} without a reduction */
    String opText() {
        return !collective.isReduction() ? "none" : ops.size() > 1 ? "all" : ops.get(0).testName();
    }

    /** @return the header's root: the rank, {@code all}, or -1 without a root */
    String rootText() {
        return !collective.isRooted() ? "-1" : allRoots ? "all" : String.valueOf(root);
    }
}
