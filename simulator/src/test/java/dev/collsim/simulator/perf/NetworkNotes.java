package dev.collsim.simulator.perf;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import java.util.Optional;

/** Test fixture: the header's network note of a communicator of every GPU, default parameters. */
final class NetworkNotes {

    private static final NcclPredictor P = new NcclPredictor(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS);

    private NetworkNotes() {
    }

    /** @return the note of {@code t} with settings {@code s} */
    static Optional<String> of(Topology t, NcclSettings s) {
        return P.prepare(t, t.gpus(), s).networkNote(PerformanceParameters.DEFAULTS);
    }
}
