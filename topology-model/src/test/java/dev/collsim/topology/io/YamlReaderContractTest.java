package dev.collsim.topology.io;

import dev.collsim.io.TopologyReader;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The reader contract for collsim's YAML cluster files, on the shipped {@code configs/dgx-h100.yaml}. */
class YamlReaderContractTest extends TopologyReaderContract {

    @Override
    TopologyReader reader() {
        return new YamlClusterReader();
    }

    @Override
    String validFile() {
        try {
            return Files.readString(Path.of("..", "configs", "dgx-h100.yaml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    String otherFormatFile() {
        return TestFiles.text("B-topo-dgx-a100.txt");
    }
}
