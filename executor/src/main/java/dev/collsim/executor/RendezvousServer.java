package dev.collsim.executor;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Rank 0's side of {@link Rendezvous}: accepts connections on one thread and handles each on its own (daemon)
 * thread with a read timeout of {@link #CONNECTION_TIMEOUT_MS}, so idle or slow clients cannot hold up the real
 * ranks. A connection that fails (idle, garbage, wrong magic or secret, another world size, a rank outside
 * 1..worldSize-1, a rank already served, a payload over 1 MiB) is closed and logged; the wait ends when every rank
 * has its id, or at the deadline with the ranks that never connected named (exit 5). At most
 * {@link #MAX_CONNECTIONS} connections are handled at once; more are closed on accept.
 */
final class RendezvousServer {

    /** Read timeout per connection, milliseconds: a real rank sends its header at once. */
    static final int CONNECTION_TIMEOUT_MS = 10_000;
    /** Connections handled at the same time; further ones are closed at once. */
    static final int MAX_CONNECTIONS = 256;
    /** Dropped connections logged one by one; later ones are only counted. */
    static final int MAX_LOGGED = 20;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ServerSocket ss;
    private final int worldSize;
    private final byte[] id;
    private final byte[] secret;
    private final Consumer<String> log;
    private final Map<Integer, byte[]> payloads = new TreeMap<>();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();

    RendezvousServer(ServerSocket ss, int worldSize, byte[] id, byte[] secret, Consumer<String> log) {
        if (worldSize > 1 && (secret == null || secret.length == 0)) {
            throw new IllegalArgumentException("rendezvous secret must not be empty");
        }
        this.ss = ss;
        this.worldSize = worldSize;
        this.id = id.clone();
        this.secret = secret.clone();
        this.log = log;
    }

    Map<Integer, byte[]> run(long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "collsim-rendezvous");
            t.setDaemon(true);
            return t;
        });
        try {
            while (!done()) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    throw new ExecutorException("rendezvous: rank 0 on port " + ss.getLocalPort() + " waited "
                            + timeoutMillis / 1000 + " s; ranks never connected: " + missing()
                            + droppedNote(), ExecutorException.DEVICE);
                }
                acceptOne(pool, (int) Math.min(Math.min(left, 200), Integer.MAX_VALUE));
            }
            synchronized (payloads) {
                return new TreeMap<>(payloads);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void acceptOne(ExecutorService pool, int waitMs) {
        Socket s;
        try {
            ss.setSoTimeout(Math.max(1, waitMs));
            s = ss.accept();
        } catch (SocketTimeoutException e) {
            return; // the loop checks for completion and the deadline
        } catch (IOException e) {
            Rendezvous.sleepQuietly(50); // e.g. too many open files: try again
            return;
        }
        if (active.incrementAndGet() > MAX_CONNECTIONS) {
            active.decrementAndGet();
            drop(s, "more than " + MAX_CONNECTIONS + " connections at once");
            closeQuietly(s);
            return;
        }
        pool.execute(() -> {
            try {
                handle(s);
            } finally {
                active.decrementAndGet();
                closeQuietly(s);
            }
        });
    }

    private void handle(Socket s) {
        try {
            s.setSoTimeout(CONNECTION_TIMEOUT_MS);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            byte[] nonce = new byte[Rendezvous.NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            out.writeInt(Rendezvous.MAGIC);
            out.write(nonce);
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            if (in.readInt() != Rendezvous.MAGIC) {
                drop(s, "not a collsim rank (wrong magic)");
                return;
            }
            int rank = in.readInt();
            int ws = in.readInt();
            int n = in.readInt();
            byte[] mac = new byte[Rendezvous.MAC_BYTES];
            in.readFully(mac);
            if (!Rendezvous.sameMac(mac, Rendezvous.mac(secret, nonce, rank, ws, n))) {
                reject(out, Rendezvous.REJECT_SECRET);
                drop(s, "wrong secret (claims rank " + rank + " of " + ws + ")");
                return;
            }
            if (ws != worldSize) {
                reject(out, Rendezvous.REJECT_WORLD_SIZE);
                drop(s, "rank " + rank + " says world size " + ws + ", rank 0 expects " + worldSize);
                return;
            }
            if (rank <= 0 || rank >= worldSize) {
                reject(out, Rendezvous.REJECT_RANK);
                drop(s, "rank " + rank + " is outside 1.." + (worldSize - 1));
                return;
            }
            if (n < 0 || n > Rendezvous.MAX_PAYLOAD) {
                drop(s, "rank " + rank + " payload of " + n + " bytes (allowed 0.." + Rendezvous.MAX_PAYLOAD + ")");
                return;
            }
            byte[] payload = new byte[n];
            in.readFully(payload);
            synchronized (payloads) {
                if (payloads.containsKey(rank)) {
                    reject(out, Rendezvous.REJECT_DUPLICATE);
                    drop(s, "rank " + rank + " has already joined");
                    return;
                }
                out.writeInt(Rendezvous.MAGIC);
                out.writeInt(id.length);
                out.write(id);
                out.flush();
                payloads.put(rank, payload);
            }
        } catch (SocketTimeoutException e) {
            drop(s, "idle for " + CONNECTION_TIMEOUT_MS / 1000 + " s");
        } catch (IOException e) {
            drop(s, "broken connection (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static void reject(DataOutputStream out, int code) throws IOException {
        out.writeInt(Rendezvous.MAGIC);
        out.writeInt(code);
        out.flush();
    }

    private void drop(Socket s, String why) {
        int k = dropped.incrementAndGet();
        if (k <= MAX_LOGGED) {
            log.accept("collsim: rendezvous: dropped a connection from " + s.getRemoteSocketAddress() + ": " + why
                    + (k == MAX_LOGGED ? " (further dropped connections are only counted)" : ""));
        }
    }

    private boolean done() {
        synchronized (payloads) {
            return payloads.size() >= worldSize - 1;
        }
    }

    private String missing() {
        List<Integer> m = new ArrayList<>();
        synchronized (payloads) {
            for (int r = 1; r < worldSize; r++) {
                if (!payloads.containsKey(r)) {
                    m.add(r);
                }
            }
        }
        return m.toString();
    }

    private String droppedNote() {
        int k = dropped.get();
        return k == 0 ? "" : " (" + k + " connection" + (k == 1 ? "" : "s") + " dropped)";
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
