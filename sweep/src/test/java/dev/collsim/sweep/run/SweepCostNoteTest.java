package dev.collsim.sweep.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.sweep.spec.CostModel;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A spec that prices nothing gets one summary line saying that its Pareto fronts are only the fastest points. */
class SweepCostNoteTest {

    @Test
    void noCostSectionIsNamedOnce() {
        assertEquals("no prices (the spec has no cost: section, or every price is 0): every design costs 0 USD, so"
                + " each workload's Pareto front is only its fastest point; add cost: (docs/sweep.md) to trade cost"
                + " against time", SweepOutput.costNote(CostModel.NONE).orElseThrow());
    }

    /** One price (a cable at 300 USD) is enough for designs to differ in cost: no line. */
    @Test
    void anyPriceDropsTheLine() {
        CostModel cables = new CostModel("USD", 0, Map.of(), 0, 0, 300, 0, 0, 0, 0, 0);
        assertTrue(SweepOutput.costNote(cables).isEmpty());
        // power without a price of energy still costs nothing
        CostModel watts = new CostModel("EUR", 0, Map.of(), 0, 0, 0, 0, 720, 0, 1200, 0);
        assertTrue(SweepOutput.costNote(watts).orElseThrow().contains("costs 0 EUR"));
    }
}
