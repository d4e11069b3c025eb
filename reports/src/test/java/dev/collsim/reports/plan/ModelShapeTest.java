package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Published shapes resolved from a parameter count alone. */
class ModelShapeTest {

    @Test
    void llama3_405bHasThePublishedShape() {
        // Dubey et al. 2024, "The Llama 3 Herd of Models", Table 3: 405B has 126 layers, model dimension 16,384.
        ModelShape s = ModelShape.of(ModelShape.parseParams("405B"), 0, 0);
        assertEquals(16384, s.hidden());
        assertEquals(126, s.layers());
    }

    @Test
    void llama3_8bHasThePublishedShape() {
        // Dubey et al. 2024, Table 3: 8B has 32 layers, model dimension 4,096.
        ModelShape s = ModelShape.of(ModelShape.parseParams("8B"), 0, 0);
        assertEquals(4096, s.hidden());
        assertEquals(32, s.layers());
    }

    @Test
    void an405bJobSplitsIntoPipelineStagesThatDivide126Layers() {
        // 126 layers = 2 x 3^2 x 7, so --pp 18 gives 7 layers per stage (Kaplan's derived shape for 405B
        // would be L = round(cbrt(405e9 / (12 x 128^2))) = 13 layers, which --pp 18 cannot split).
        ModelShape s = ModelShape.of(ModelShape.parseParams("405B"), 0, 0);
        assertEquals(0, s.layers() % 18);
        assertEquals(7, s.layers() / 18);
    }
}
