package dev.collsim.executor;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sends rank 0's ncclUniqueId (an opaque byte array, 128 bytes in NCCL {@code nccl.h NCCL_UNIQUE_ID_BYTES}) to
 * every other rank over TCP, with a deadline. Rank 0 listens; the others connect (retrying until the deadline,
 * since rank 0 may start later), send their rank and receive the id.
 *
 * <p>Each client also sends a payload (collsim sends its GPUs' description as JSON), which rank 0 collects, so
 * rank 0 can print every rank's device line and record every GPU.
 *
 * <p>Wire format: client sends {@code int magic, int rank, int worldSize, int n, byte[n] payload}; server
 * answers {@code int magic, int length, byte[length]} (length -1: rejected). All ints big-endian.
 */
public final class Rendezvous {

    private static final int MAGIC = 0x636f6c6c; // "coll"

    private Rendezvous() {
    }

    /**
     * Rank 0: serve the id to worldSize - 1 clients.
     *
     * @param port          TCP port to listen on (0 = any; see {@code boundPort})
     * @param worldSize     number of ranks
     * @param id            the bytes to send
     * @param timeoutMillis total time to wait for all ranks
     * @param boundPort     receives the port actually bound (may be null)
     * @return each other rank's payload, by rank
     * @throws ExecutorException (device) naming the ranks that never connected, or the port that could not be
     *                           bound
     */
    public static Map<Integer, byte[]> serve(int port, int worldSize, byte[] id, long timeoutMillis,
            int[] boundPort) {
        try (ServerSocket ss = new ServerSocket()) {
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(port));
            if (boundPort != null) {
                boundPort[0] = ss.getLocalPort();
            }
            return serveOn(ss, worldSize, id, timeoutMillis);
        } catch (IOException e) {
            throw new ExecutorException("rendezvous: rank 0 cannot listen on TCP port " + port + ": " + e.getMessage(),
                    ExecutorException.DEVICE, e);
        }
    }

    /**
     * Serves on an already bound socket (tests bind port 0 first).
     *
     * @param ss            a bound server socket (not closed here)
     * @param worldSize     ranks
     * @param id            the bytes
     * @param timeoutMillis total wait
     * @return each other rank's payload, by rank
     * @throws ExecutorException (device) when ranks are missing at the deadline
     */
    public static Map<Integer, byte[]> serveOn(ServerSocket ss, int worldSize, byte[] id,
            long timeoutMillis) {
        Map<Integer, byte[]> payloads = new TreeMap<>();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        boolean[] seen = new boolean[worldSize];
        seen[0] = true;
        int served = 1;
        while (served < worldSize) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new ExecutorException("rendezvous: rank 0 on port " + ss.getLocalPort() + " waited "
                        + timeoutMillis / 1000 + " s; ranks never connected: " + missing(seen),
                        ExecutorException.DEVICE);
            }
            try {
                ss.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
                try (Socket s = ss.accept()) {
                    s.setSoTimeout((int) Math.min(Math.max(left, 1000), 30_000));
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    if (in.readInt() != MAGIC) {
                        continue; // not one of ours
                    }
                    int rank = in.readInt();
                    int ws = in.readInt();
                    int n = in.readInt();
                    if (n < 0 || n > (1 << 20)) {
                        continue;
                    }
                    byte[] payload = new byte[n];
                    in.readFully(payload);
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    if (ws != worldSize || rank <= 0 || rank >= worldSize) {
                        out.writeInt(MAGIC);
                        out.writeInt(-1);
                        out.flush();
                        throw new ExecutorException("rendezvous: a process says rank " + rank + " of " + ws
                                + " but rank 0 expects " + worldSize + " ranks", ExecutorException.DEVICE);
                    }
                    out.writeInt(MAGIC);
                    out.writeInt(id.length);
                    out.write(id);
                    out.flush();
                    if (!seen[rank]) {
                        seen[rank] = true;
                        served++;
                    }
                    payloads.put(rank, payload);
                }
            } catch (SocketTimeoutException e) {
                // loop re-checks the deadline
            } catch (IOException e) {
                // a broken client: keep serving the others
            }
        }
        return payloads;
    }

    /**
     * Ranks > 0: fetch the id from rank 0, retrying the connection until the deadline.
     *
     * @param host          rank 0's host
     * @param port          rank 0's port
     * @param rank          this rank
     * @param worldSize     ranks
     * @param timeoutMillis total time
     * @return the id bytes
     * @throws ExecutorException (device) naming host:port when it could not be reached in time
     */
    public static byte[] fetch(String host, int port, int rank, int worldSize, long timeoutMillis) {
        return fetch(host, port, rank, worldSize, timeoutMillis, new byte[0]);
    }

    /**
     * As {@link #fetch(String, int, int, int, long)}, sending a payload to rank 0.
     *
     * @param host          rank 0's host
     * @param port          rank 0's port
     * @param rank          this rank
     * @param worldSize     ranks
     * @param timeoutMillis total time
     * @param payload       bytes for rank 0 (at most 1 MiB)
     * @return the id bytes
     * @throws ExecutorException (device) naming host:port when it could not be reached in time
     */
    public static byte[] fetch(String host, int port, int rank, int worldSize, long timeoutMillis, byte[] payload) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        String last = "no attempt";
        while (System.currentTimeMillis() < deadline) {
            long left = deadline - System.currentTimeMillis();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), (int) Math.max(1, Math.min(left, 5000)));
                s.setSoTimeout((int) Math.max(1, Math.min(left, 30_000)));
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(MAGIC);
                out.writeInt(rank);
                out.writeInt(worldSize);
                out.writeInt(payload.length);
                out.write(payload);
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                if (in.readInt() != MAGIC) {
                    throw new ExecutorException("rendezvous: " + host + ":" + port + " is not a collsim rank 0",
                            ExecutorException.DEVICE);
                }
                int len = in.readInt();
                if (len < 0) {
                    throw new ExecutorException("rendezvous: rank 0 at " + host + ":" + port + " rejected rank "
                            + rank + " of " + worldSize + " (world sizes differ)", ExecutorException.DEVICE);
                }
                byte[] id = new byte[len];
                in.readFully(id);
                return id;
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + ": " + e.getMessage();
                sleepQuietly(Math.min(200, Math.max(0, deadline - System.currentTimeMillis())));
            }
        }
        throw new ExecutorException("rendezvous: rank " + rank + " could not reach rank 0 at " + host + ":" + port
                + " within " + timeoutMillis / 1000 + " s (" + last + "); check MASTER_ADDR/MASTER_PORT and "
                + "that rank 0 started", ExecutorException.DEVICE);
    }

    private static String missing(boolean[] seen) {
        List<Integer> m = new ArrayList<>();
        for (int i = 0; i < seen.length; i++) {
            if (!seen[i]) {
                m.add(i);
            }
        }
        return m.toString();
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
