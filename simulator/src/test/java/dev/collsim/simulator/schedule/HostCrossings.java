package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

/**
 * Test support: the ring hops that leave the first host of a two-host, 8-GPU-per-host layout (ranks 0-7 on host 0,
 * 8-15 on host 1), the one check the channel-NIC tests of the analytical fixture ({@code ChannelNicsTest}) and of the
 * catalog DGX H100 ({@code network.SearchedChannelNicsTest}) share.
 */
public final class HostCrossings {

    private HostCrossings() {
    }

    /**
     * Asserts that each channel c has exactly one transfer from host 0 to host 1, from rank {@code expected[c][0]} to
     * rank {@code expected[c][1]}.
     *
     * @param transfers one step's transfers
     * @param expected  per channel, the sending and the receiving rank of its hop between the hosts
     */
    public static void assertCrossings(List<Transfer> transfers, int[][] expected) {
        for (int c = 0; c < expected.length; c++) {
            int channel = c;
            List<Transfer> cross = transfers.stream().filter(x -> x.channel() == channel && x.src() < 8
                    && x.dst() >= 8).toList();
            assertEquals(1, cross.size(), "channel " + c + ": " + cross);
            assertEquals(expected[c][0], cross.get(0).src(), "channel " + c);
            assertEquals(expected[c][1], cross.get(0).dst(), "channel " + c);
        }
    }
}
