package dev.collsim.topology.io;

import dev.collsim.io.TopologyReader;
import dev.collsim.topology.io.smi.NvidiaSmiTopoReader;

/** The reader contract for {@code nvidia-smi topo -m} text, on a real DGX A100 matrix. */
class NvidiaSmiReaderContractTest extends TopologyReaderContract {

    @Override
    TopologyReader reader() {
        return new NvidiaSmiTopoReader();
    }

    @Override
    String validFile() {
        return TestFiles.text("B-topo-dgx-a100.txt");
    }

    @Override
    String otherFormatFile() {
        return TestFiles.text("C-topo-azure-ndv4-8xA100.xml");
    }
}
