/*
 * What TicketText.lean gives and costs on generated tickets: a SHA-256 of its output for every
 * subject and body of 60,000 tickets (three seeds; the same digest on two builds = the same output),
 * and its warm time and allocation a body. Run from the repository root after building the jar:
 *
 *   java -cp quotaflow-bench/target/quotaflow-dev.jar dev/LeanHash.java
 */
import io.quotaflow.bench.GeneratedTicket;
import io.quotaflow.bench.TicketGenerator;
import io.quotaflow.llm.TicketText;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

public class LeanHash {

    private static final int TICKETS = 20_000;
    private static final int WARM_UP_ROUNDS = 5;
    private static final int TIMED_ROUNDS = 10;

    public static void main(String[] args) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        int hashed = 0;
        for (long seed : new long[] {42, 7, 1234}) {
            for (GeneratedTicket t : new TicketGenerator(seed).generate(TICKETS)) {
                digest.update(String.valueOf(TicketText.lean(t.subject())).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
                digest.update(String.valueOf(TicketText.lean(t.body())).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 1);
                hashed++;
            }
        }
        List<GeneratedTicket> tickets = new TicketGenerator(99).generate(TICKETS);
        leanBodies(tickets, WARM_UP_ROUNDS);
        long start = System.nanoTime();
        leanBodies(tickets, TIMED_ROUNDS);
        long nanosABody = (System.nanoTime() - start) / ((long) TIMED_ROUNDS * TICKETS);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        leanBodies(tickets, 1);
        long bytesABody = (threads.getCurrentThreadAllocatedBytes() - before) / TICKETS;
        System.out.printf("%d tickets %s ; warm lean %d ns a body, %d bytes a body%n",
                hashed, HexFormat.of().formatHex(digest.digest()), nanosABody, bytesABody);
    }

    private static void leanBodies(List<GeneratedTicket> tickets, int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (GeneratedTicket t : tickets) {
                TicketText.lean(t.body());
            }
        }
    }
}
