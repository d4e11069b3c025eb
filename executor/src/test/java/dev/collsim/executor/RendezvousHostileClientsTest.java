package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Rank 0 among clients that are not its ranks (all on loopback): idle connections, garbage bytes, a client that
 * knows the wire format and the public magic constant but not the secret, a wrong world size, a second process
 * claiming a rank already served. None gets the id, none stops rank 0, and the real ranks complete long before
 * the per-connection read timeout would release an idle connection.
 */
class RendezvousHostileClientsTest {

    private static final String HOST = "127.0.0.1";

    @Test
    void onlyTheJobsRanksGetTheIdAndTheyAllComplete() throws Exception {
        int world = 4;
        byte[] id = RendezvousTest.id();
        byte[] secret = RendezvousTest.SECRET;
        List<String> log = new CopyOnWriteArrayList<>();
        List<Socket> idle = new ArrayList<>();
        ExecutorService pool = Executors.newCachedThreadPool();
        try (ServerSocket ss = RendezvousTest.loopback()) {
            int port = ss.getLocalPort();
            Future<Map<Integer, byte[]>> server = pool.submit(() -> Rendezvous.serveOn(ss, world, id, secret,
                    20_000, log::add));
            for (int i = 0; i < 5; i++) { // idle: connect and never send a byte
                idle.add(new Socket(HOST, port));
            }
            try (Socket g = new Socket(HOST, port)) { // garbage bytes
                OutputStream o = g.getOutputStream();
                o.write("GET / HTTP/1.0\r\n\r\n garbage garbage garbage garbage garbage".getBytes());
                o.flush();
                assertEquals(-1, drain(g), "garbage gets no id");
            }
            assertEquals(Rendezvous.REJECT_SECRET, foreign(port, 1, world), "the magic alone gets no id");
            ExecutorException wrongSecret = assertThrows(ExecutorException.class, () -> Rendezvous.fetch(HOST, port,
                    2, world, Rendezvous.key("another job"), 5_000, new byte[0]));
            assertTrue(wrongSecret.getMessage().contains("secret differs"), wrongSecret.getMessage());
            ExecutorException wrongWorld = assertThrows(ExecutorException.class, () -> Rendezvous.fetch(HOST, port,
                    2, world + 1, secret, 5_000, new byte[0]));
            assertTrue(wrongWorld.getMessage().contains("world sizes differ"), wrongWorld.getMessage());
            assertArrayEquals(id, Rendezvous.fetch(HOST, port, 1, world, secret, 5_000, new byte[0]));
            ExecutorException dup = assertThrows(ExecutorException.class, () -> Rendezvous.fetch(HOST, port, 1,
                    world, secret, 5_000, new byte[0]));
            assertTrue(dup.getMessage().contains("already joined as rank 1"), dup.getMessage());
            for (int r = 2; r < world; r++) {
                assertArrayEquals(id, Rendezvous.fetch(HOST, port, r, world, secret, 5_000, new byte[] {(byte) r}));
            }
            Map<Integer, byte[]> payloads = server.get();
            // the idle connections are still open: had the server waited on one, the ranks would have been served
            // only after it was dropped as idle, which the log would show by now (no wall-clock threshold)
            String served = String.join("\n", log);
            assertFalse(served.contains("idle for"), "idle connections do not hold up the ranks:\n" + served);
            assertEquals(List.of(1, 2, 3), new ArrayList<>(payloads.keySet()));
            assertArrayEquals(new byte[] {3}, payloads.get(3));
            String all = String.join("\n", log);
            for (String why : List.of("wrong magic", "wrong secret (claims rank 1 of 4)", "wrong secret (claims rank 2",
                    "world size 5, rank 0 expects 4", "rank 1 has already joined")) {
                assertTrue(all.contains(why), why + " not logged in:\n" + all);
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
            pool.shutdownNow();
        }
    }

    @Test
    void garbageAndIdleAloneEndInTheUsualTimeoutMessage() throws Exception {
        try (ServerSocket ss = RendezvousTest.loopback(); Socket s = new Socket(HOST, ss.getLocalPort())) {
            ExecutorException e = assertThrows(ExecutorException.class,
                    () -> Rendezvous.serveOn(ss, 3, new byte[128], RendezvousTest.SECRET, 1_500, l -> { }));
            assertEquals(ExecutorException.DEVICE, e.exitCode());
            assertTrue(e.getMessage().contains("ranks never connected: [1, 2]"), e.getMessage());
        }
    }

    /** A client that speaks the wire format but has no secret (an all-zero authenticator); returns the status. */
    private static int foreign(int port, int rank, int world) throws Exception {
        try (Socket s = new Socket(HOST, port)) {
            s.setSoTimeout(5_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(Rendezvous.MAGIC, in.readInt());
            in.readFully(new byte[Rendezvous.NONCE_BYTES]);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(Rendezvous.MAGIC);
            out.writeInt(rank);
            out.writeInt(world);
            out.writeInt(0);
            out.write(new byte[Rendezvous.MAC_BYTES]);
            out.flush();
            assertEquals(Rendezvous.MAGIC, in.readInt());
            int status = in.readInt();
            assertEquals(-1, in.read(), "nothing follows a refusal");
            return status;
        }
    }

    /** Reads until the server closes; returns -1 when it sent nothing but its greeting (magic and nonce). */
    private static int drain(Socket s) throws Exception {
        s.setSoTimeout(5_000);
        DataInputStream in = new DataInputStream(s.getInputStream());
        in.readInt();
        in.readFully(new byte[Rendezvous.NONCE_BYTES]);
        return in.read();
    }
}
