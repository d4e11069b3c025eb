package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The id exchange of multi-process runs, with ranks as threads of this JVM on loopback. */
class RendezvousTest {

    static final byte[] SECRET = Rendezvous.key("job-4711-secret");

    static byte[] id() {
        byte[] id = new byte[128];
        for (int i = 0; i < id.length; i++) {
            id[i] = (byte) (i * 7 + 1);
        }
        return id;
    }

    static ServerSocket loopback() throws Exception {
        ServerSocket ss = new ServerSocket();
        ss.bind(new InetSocketAddress("127.0.0.1", 0));
        return ss;
    }

    @Test
    void rankZeroServesEveryRankTheSameId() throws Exception {
        byte[] id = id();
        int world = 6;
        try (ServerSocket ss = loopback()) {
            int port = ss.getLocalPort();
            ExecutorService pool = Executors.newFixedThreadPool(world);
            try {
                List<Future<byte[]>> got = new ArrayList<>();
                // clients start first: they must retry until rank 0 listens
                for (int r = 1; r < world; r++) {
                    final int rank = r;
                    got.add(pool.submit(() -> Rendezvous.fetch("127.0.0.1", port, rank, world, SECRET, 10_000,
                            ("gpu of rank " + rank).getBytes(StandardCharsets.UTF_8))));
                }
                Future<Map<Integer, byte[]>> server = pool.submit(() -> Rendezvous.serveOn(ss, world, id, SECRET,
                        10_000, System.err::println));
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
    void serveBindsTheNamedAddressOnly() throws Exception {
        int[] bound = new int[1];
        Thread server = new Thread(() -> Rendezvous.serve("127.0.0.1", 0, 2, id(), SECRET, 5_000, bound, s -> { }));
        server.start();
        while (bound[0] == 0) {
            Thread.sleep(10);
        }
        assertArrayEquals(id(), Rendezvous.fetch("127.0.0.1", bound[0], 1, 2, SECRET, 5_000, new byte[0]));
        server.join();
        // an address that is not this host's cannot be bound: a clear message naming the variables
        ExecutorException e = assertThrows(ExecutorException.class,
                () -> Rendezvous.serve("192.0.2.1", 0, 2, id(), SECRET, 1_000, null, s -> { }));
        assertEquals(ExecutorException.DEVICE, e.exitCode());
        assertTrue(e.getMessage().contains("192.0.2.1") && e.getMessage().contains("COLLSIM_RDZV_BIND"),
                e.getMessage());
    }

    @Test
    void missingRanksAreNamed() throws Exception {
        try (ServerSocket ss = loopback()) {
            int port = ss.getLocalPort();
            Thread t = new Thread(() -> Rendezvous.fetch("127.0.0.1", port, 2, 4, SECRET, 5_000, new byte[0]));
            t.start();
            ExecutorException e = assertThrows(ExecutorException.class,
                    () -> Rendezvous.serveOn(ss, 4, new byte[128], SECRET, 1_500, s -> { }));
            t.join();
            assertEquals(ExecutorException.DEVICE, e.exitCode());
            assertTrue(e.getMessage().contains("ranks never connected: [1, 3]"), e.getMessage());
        }
    }

    /**
     * Nobody listens on the port: the rank retries until its 1 s deadline and then names rank 0's address, the
     * deadline it waited and the last connection error. Judged from the message, not the wall clock (a loaded CI
     * machine may take any time); the JUnit timeout is only a hang guard, 60 times the deadline, for a loop that
     * would never give up.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void unreachableRankZeroIsNamedWithItsAddress() throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0)) {
            port = ss.getLocalPort(); // closed again: nobody listens there
        }
        ExecutorException e = assertThrows(ExecutorException.class,
                () -> Rendezvous.fetch("127.0.0.1", port, 1, 2, SECRET, 1_000, new byte[0]));
        String m = e.getMessage();
        assertEquals(ExecutorException.DEVICE, e.exitCode());
        assertTrue(m.startsWith("rendezvous: rank 1 could not reach rank 0 at 127.0.0.1:" + port + " within 1 s ("),
                m);
        assertTrue(m.contains("(ConnectException: "), "the last attempt was refused, not never made: " + m);
    }

    @Test
    void worldSizeMismatchIsRejectedAndRankZeroKeepsServing() throws Exception {
        try (ServerSocket ss = loopback()) {
            int port = ss.getLocalPort();
            List<String> log = new CopyOnWriteArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Map<Integer, byte[]>> server = pool.submit(() -> Rendezvous.serveOn(ss, 2, id(), SECRET,
                        5_000, log::add));
                ExecutorException e = assertThrows(ExecutorException.class,
                        () -> Rendezvous.fetch("127.0.0.1", port, 1, 3, SECRET, 3_000, new byte[0]));
                assertTrue(e.getMessage().contains("world sizes differ"), e.getMessage());
                // rank 0 did not abort: the real rank 1 of 2 still gets the id
                assertArrayEquals(id(), Rendezvous.fetch("127.0.0.1", port, 1, 2, SECRET, 3_000, new byte[0]));
                assertEquals(1, server.get().size());
                assertTrue(log.stream().anyMatch(l -> l.contains("world size 3, rank 0 expects 2")), log.toString());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aHostNameThatResolvesToLoopbackListensEverywhereWithAWarning() throws Exception {
        List<String> log = new ArrayList<>();
        assertTrue(Rendezvous.bindAddress("127.0.0.1", log::add).isLoopbackAddress());
        assertTrue(Rendezvous.bindAddress("localhost", log::add).isLoopbackAddress());
        assertTrue(log.isEmpty(), log.toString());
        String self = InetAddress.getLocalHost().getHostName();
        if (InetAddress.getByName(self).isLoopbackAddress()) {
            assertTrue(Rendezvous.bindAddress(self, log::add).isAnyLocalAddress());
            assertTrue(log.get(0).contains("COLLSIM_RDZV_BIND"), log.toString());
        }
    }
}
