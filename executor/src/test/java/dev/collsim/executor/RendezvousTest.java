package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The id exchange of multi-process runs, with ranks as threads of this JVM on loopback. */
class RendezvousTest {

    @Test
    void rankZeroServesEveryRankTheSameId() throws Exception {
        byte[] id = new byte[128];
        for (int i = 0; i < id.length; i++) {
            id[i] = (byte) (i * 7 + 1);
        }
        int world = 6;
        try (ServerSocket ss = new ServerSocket()) {
            ss.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ss.getLocalPort();
            ExecutorService pool = Executors.newFixedThreadPool(world);
            try {
                List<Future<byte[]>> got = new ArrayList<>();
                // clients start first: they must retry until rank 0 listens
                for (int r = 1; r < world; r++) {
                    final int rank = r;
                    got.add(pool.submit(() -> Rendezvous.fetch("127.0.0.1", port, rank, world, 10_000,
                            ("gpu of rank " + rank).getBytes(StandardCharsets.UTF_8))));
                }
                Future<Map<Integer, byte[]>> server = pool.submit(() -> Rendezvous.serveOn(ss, world, id,
                        10_000));
                Map<Integer, byte[]> payloads = server.get();
                for (Future<byte[]> f : got) {
                    assertArrayEquals(id, f.get());
                }
                assertEquals(world - 1, payloads.size());
                assertEquals("gpu of rank 4", new String(payloads.get(4), StandardCharsets.UTF_8));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void missingRanksAreNamed() throws Exception {
        try (ServerSocket ss = new ServerSocket()) {
            ss.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ss.getLocalPort();
            Thread t = new Thread(() -> Rendezvous.fetch("127.0.0.1", port, 2, 4, 5_000));
            t.start();
            ExecutorException e = assertThrows(ExecutorException.class,
                    () -> Rendezvous.serveOn(ss, 4, new byte[128], 1_500));
            t.join();
            assertEquals(ExecutorException.DEVICE, e.exitCode());
            assertTrue(e.getMessage().contains("[1, 3]"), e.getMessage());
        }
    }

    @Test
    void unreachableRankZeroIsNamedWithItsAddress() throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0)) {
            port = ss.getLocalPort(); // closed again: nobody listens there
        }
        long t0 = System.nanoTime();
        ExecutorException e = assertThrows(ExecutorException.class,
                () -> Rendezvous.fetch("127.0.0.1", port, 1, 2, 1_000));
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        assertTrue((System.nanoTime() - t0) / 1e9 < 5, "gives up near the timeout");
    }

    @Test
    void worldSizeMismatchIsRejected() throws Exception {
        try (ServerSocket ss = new ServerSocket()) {
            ss.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ss.getLocalPort();
            Thread server = new Thread(() -> {
                try {
                    Rendezvous.serveOn(ss, 2, new byte[128], 3_000);
                } catch (ExecutorException expected) {
                    // the server reports it too
                }
            });
            server.start();
            ExecutorException e = assertThrows(ExecutorException.class,
                    () -> Rendezvous.fetch("127.0.0.1", port, 1, 3, 3_000));
            assertTrue(e.getMessage().contains("world sizes differ"), e.getMessage());
            server.join();
        }
    }
}
