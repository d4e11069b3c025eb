package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * Where the flow backend passes the physical bound it prints (it routes network bytes GPU-direct at the NICs' line
 * rate, without NCCL's socket streams or the staging through host memory that the bound counts), predict says so.
 */
class FlowAboveBoundCliTest {

    /**
     * 2 DGX H100 over NCCL's sockets, Ring forced: the bound is the streams', 16 channels x 1 stream per connection
     * (one stream in the proxy thread on a non-cloud NIC, NCCL 2.30.7 {@code src/transport/net_socket.cc}) x 2.225
     * GB/s per stream (NVIDIA/nccl#450 iperf3) = 35.60 GB/s busbw, while 8 x 400 Gb/s NICs per node let a GPU-direct
     * ring reach far more: the warning names the first size and both figures.
     */
    @Test
    void socketsWarnThatTheFlowBusbwPassesTheStreamsBound() {
        CliRun r = CliRun.run("predict", "-c", "dgx-h100x2", "--backend", "flow", "--network", "socket", "--algo",
                "Ring", "allreduce", "-b", "1G", "-e", "1G");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# Warning: busbw above the bound at 1 of 1 sizes (first 1073741824 B: "), r.out());
        assertTrue(r.out().contains(" against 35.60 GB/s): the flow and links backends move network bytes GPU-direct"),
                r.out());
    }

    /** On InfiniBand with GPUDirect RDMA the flow busbw stays under the bound (FlowHierarchicalPhasesTest): no line. */
    @Test
    void gpuDirectInfiniBandHasNoWarning() {
        CliRun r = CliRun.run("predict", "-c", "dgx-h100x2", "--backend", "flow", "allreduce", "-b", "64M", "-e", "1G",
                "-f", "4");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("above the bound"), r.out());
    }
}
