package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A 10-minute fuzz run found this: the 8x H200 host of nccl-tests issue 380 lists NIC2..NIC5; with the header's
 * NIC4 renamed in the header and its row (here 'NInanC4', as a mutant had it; real files name RDMA columns mlx5_0 and the like), the renamed
 * column took the next NIC ordinal, 2, and collided with NIC2 ("duplicate device id 'h0/nic2'", exit 1). Every NIC
 * column now gets its own id: 4 NICs, 4 ids.
 */
class SmiNicColumnIdsTest {

    @Test
    void renamedNicColumnGetsAnIdOfItsOwn() throws Exception {
        Path real = Path.of("src/test/resources/dev/collsim/topology/io/"
                + "B-topo-8xH200-4xcx7-host-and-kvm-guest-issue-nccltests380.txt");
        String text = Files.readString(real);
        String mutant = text.replace("NIC4", "NInanC4");
        Topology t = ClusterLoader.read("mutant.txt", mutant);
        var ids = t.devices(Nic.class).stream().filter(n -> n.host() == 0).map(Nic::id).collect(Collectors.toSet());
        assertEquals(4, ids.size(), ids.toString());
    }
}
