package dev.collsim.topology.io;

import dev.collsim.io.TopologyReader;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;

/** The reader contract for NCCL topology XML ({@code NCCL_TOPO_DUMP_FILE}), on Azure's published NDv4 file. */
class NcclXmlReaderContractTest extends TopologyReaderContract {

    @Override
    TopologyReader reader() {
        return new NcclTopoXmlReader();
    }

    @Override
    String validFile() {
        return TestFiles.text("C-topo-azure-ndv4-8xA100.xml");
    }

    @Override
    String otherFormatFile() {
        return TestFiles.text("B-topo-dgx-a100.txt");
    }
}
