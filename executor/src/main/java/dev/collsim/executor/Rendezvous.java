package dev.collsim.executor;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.function.Consumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sends rank 0's ncclUniqueId (an opaque byte array, 128 bytes in NCCL {@code nccl.h NCCL_UNIQUE_ID_BYTES}) to
 * every other rank of the same job over TCP, with a deadline. Rank 0 listens on the address the launcher names;
 * the others connect (retrying until the deadline, since rank 0 may start later), prove that they hold the job's
 * secret, send their rank and receive the id. Each client also sends a payload (collsim sends its GPUs'
 * description as JSON), which rank 0 collects.
 *
 * <p>Wire format (all ints big-endian): on accept the server sends {@code int magic, byte[32] nonce}; the client
 * sends {@code int magic, int rank, int worldSize, int n, byte[32] mac, byte[n] payload} with
 * {@code mac = HMAC-SHA256(secret, nonce | rank | worldSize | n)}; the server answers {@code int magic, int status}
 * followed by {@code byte[status]} (the id) when {@code status >= 0}, else one of the {@code REJECT_*} codes. The
 * secret itself never travels; the id does, in clear (NCCL's own bootstrap sends it the same way).
 *
 * <p>The server side is {@link RendezvousServer}: concurrent, with a per-connection read timeout; a connection
 * that is idle, garbled, foreign (wrong magic or secret), for another world size, or for a rank already served
 * is dropped and logged, never fatal.
 */
public final class Rendezvous {

    static final int MAGIC = 0x636f6c6c; // "coll"
    static final int NONCE_BYTES = 32;
    static final int MAC_BYTES = 32;
    /** Largest payload a rank may send (1 MiB). */
    static final int MAX_PAYLOAD = 1 << 20;
    static final int REJECT_WORLD_SIZE = -1;
    static final int REJECT_SECRET = -2;
    static final int REJECT_DUPLICATE = -3;
    static final int REJECT_RANK = -4;

    private Rendezvous() {
    }

    /**
     * Rank 0: listen on {@code bindAddr:port} and serve the id to worldSize - 1 clients holding the secret.
     *
     * @param bindAddr      host name or address to bind (the launcher's MASTER_ADDR, or COLLSIM_RDZV_BIND)
     * @param port          TCP port to listen on (0 = any; see {@code boundPort})
     * @param worldSize     number of ranks
     * @param id            the bytes to send
     * @param secret        the job's secret (HMAC key)
     * @param timeoutMillis total time to wait for all ranks
     * @param boundPort     receives the port actually bound (may be null)
     * @param log           receives one line per dropped connection
     * @return each other rank's payload, by rank
     * @throws ExecutorException (device) naming the ranks that never connected, or the address that could not
     *                           be bound
     */
    public static Map<Integer, byte[]> serve(String bindAddr, int port, int worldSize, byte[] id, byte[] secret,
            long timeoutMillis, int[] boundPort, Consumer<String> log) {
        try (ServerSocket ss = new ServerSocket()) {
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(bindAddress(bindAddr, log), port));
            if (boundPort != null) {
                boundPort[0] = ss.getLocalPort();
            }
            return serveOn(ss, worldSize, id, secret, timeoutMillis, log);
        } catch (IOException e) {
            throw new ExecutorException("rendezvous: rank 0 cannot listen on " + bindAddr + ":" + port + " ("
                    + e.getMessage() + "); MASTER_ADDR must name this host, or set COLLSIM_RDZV_BIND to one of its"
                    + " addresses", ExecutorException.DEVICE, e);
        }
    }

    /**
     * The address to listen on. A host name (not a literal address, not {@code localhost}) that resolves to a
     * loopback address on rank 0's own host (Debian's {@code 127.0.1.1 hostname} line in /etc/hosts) would make
     * rank 0 unreachable from other hosts, which resolve the name through DNS: then every interface is bound,
     * with a line on the log; the secret still keeps foreign clients out.
     */
    static InetAddress bindAddress(String bindAddr, Consumer<String> log) throws IOException {
        InetAddress a = InetAddress.getByName(bindAddr);
        boolean literal = bindAddr.matches("[0-9.]+") || bindAddr.contains(":");
        if (a.isLoopbackAddress() && !literal && !bindAddr.equalsIgnoreCase("localhost")) {
            log.accept("collsim: rendezvous: " + bindAddr + " resolves to " + a.getHostAddress() + " on this host;"
                    + " listening on every interface (set COLLSIM_RDZV_BIND to choose one)");
            return new InetSocketAddress(0).getAddress();
        }
        return a;
    }

    /**
     * Serves on an already bound socket (tests bind port 0 on loopback first).
     *
     * @param ss            a bound server socket (not closed here)
     * @param worldSize     ranks
     * @param id            the bytes
     * @param secret        the job's secret
     * @param timeoutMillis total wait
     * @param log           receives one line per dropped connection
     * @return each other rank's payload, by rank
     * @throws ExecutorException (device) when ranks are missing at the deadline
     */
    public static Map<Integer, byte[]> serveOn(ServerSocket ss, int worldSize, byte[] id, byte[] secret,
            long timeoutMillis, Consumer<String> log) {
        return new RendezvousServer(ss, worldSize, id, secret, log).run(timeoutMillis);
    }

    /**
     * Ranks > 0: fetch the id from rank 0, retrying the connection until the deadline.
     *
     * @param host          rank 0's host
     * @param port          rank 0's port
     * @param rank          this rank
     * @param worldSize     ranks
     * @param secret        the job's secret
     * @param timeoutMillis total time
     * @param payload       bytes for rank 0 (at most 1 MiB)
     * @return the id bytes
     * @throws ExecutorException (device) naming host:port when it could not be reached in time, or when rank 0
     *                           refused this rank (world size, secret, rank already served)
     */
    public static byte[] fetch(String host, int port, int rank, int worldSize, byte[] secret, long timeoutMillis,
            byte[] payload) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        String last = "no attempt";
        String where = host + ":" + port;
        while (System.currentTimeMillis() < deadline) {
            long left = deadline - System.currentTimeMillis();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), (int) Math.max(1, Math.min(left, 5000)));
                s.setSoTimeout((int) Math.max(1, Math.min(left, 30_000)));
                DataInputStream in = new DataInputStream(s.getInputStream());
                if (in.readInt() != MAGIC) {
                    throw new ExecutorException("rendezvous: " + where + " is not a collsim rank 0",
                            ExecutorException.DEVICE);
                }
                byte[] nonce = new byte[NONCE_BYTES];
                in.readFully(nonce);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(MAGIC);
                out.writeInt(rank);
                out.writeInt(worldSize);
                out.writeInt(payload.length);
                out.write(mac(secret, nonce, rank, worldSize, payload.length));
                out.write(payload);
                out.flush();
                if (in.readInt() != MAGIC) {
                    throw new ExecutorException("rendezvous: " + where + " is not a collsim rank 0",
                            ExecutorException.DEVICE);
                }
                int len = in.readInt();
                if (len < 0) {
                    throw refused(where, rank, worldSize, len);
                }
                byte[] id = new byte[len];
                in.readFully(id);
                return id;
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + ": " + e.getMessage();
                sleepQuietly(Math.min(200, Math.max(0, deadline - System.currentTimeMillis())));
            }
        }
        throw new ExecutorException("rendezvous: rank " + rank + " could not reach rank 0 at " + where
                + " within " + timeoutMillis / 1000 + " s (" + last + "); check MASTER_ADDR/MASTER_PORT and "
                + "that rank 0 started", ExecutorException.DEVICE);
    }

    private static ExecutorException refused(String where, int rank, int worldSize, int code) {
        String why = switch (code) {
            case REJECT_WORLD_SIZE -> "world sizes differ";
            case REJECT_SECRET -> "its secret differs: every rank needs the same COLLSIM_RENDEZVOUS_SECRET"
                    + " (or the same job id)";
            case REJECT_DUPLICATE -> "another process already joined as rank " + rank;
            default -> "rank outside 1.." + (worldSize - 1);
        };
        return new ExecutorException("rendezvous: rank 0 at " + where + " rejected rank " + rank + " of "
                + worldSize + " (" + why + ")", ExecutorException.DEVICE);
    }

    /**
     * The authenticator a client sends: HMAC-SHA256 keyed by the secret over the server's nonce and the header.
     *
     * @param secret    the job's secret (not empty)
     * @param nonce     the server's 32 random bytes
     * @param rank      the client's rank
     * @param worldSize the client's world size
     * @param n         the payload length in bytes
     * @return 32 bytes
     */
    static byte[] mac(byte[] secret, byte[] nonce, int rank, int worldSize, int n) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(secret, "HmacSHA256"));
            m.update(nonce);
            m.update(ByteBuffer.allocate(12).putInt(rank).putInt(worldSize).putInt(n).array());
            return m.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    /** Constant-time comparison of two authenticators. */
    static boolean sameMac(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    /**
     * @param secret the secret as text
     * @return its UTF-8 bytes, the HMAC key
     */
    public static byte[] key(String secret) {
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
