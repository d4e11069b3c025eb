package dev.collsim.topology.io;

import dev.collsim.topology.io.infragraph.InfraGraphReader;

import dev.collsim.io.TopologyReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The reader contract for InfraGraph files, on the hand-written two-server example (see its source header). */
class InfraGraphReaderContractTest extends TopologyReaderContract {

    @Override
    TopologyReader reader() {
        return new InfraGraphReader();
    }

    @Override
    String validFile() {
        return TestFiles.text("infragraph/generic-2server-leaf.yaml");
    }

    @Override
    String otherFormatFile() {
        try {
            return Files.readString(Path.of("..", "configs", "dgx-h100.yaml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
