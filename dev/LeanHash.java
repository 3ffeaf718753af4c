/*
 * What TicketText.lean gives and costs on generated tickets: a SHA-256 of its output for every
 * subject and body of 60,000 tickets (three seeds; the same digest on two builds = the same output),
 * and its warm time and allocation a body. Run from the repository root after building the jar:
 *
 *   java -cp quotaflow-bench/target/quotaflow-dev.jar dev/LeanHash.java
 */
import io.quotaflow.bench.*;
import io.quotaflow.model.TicketText;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
public class LeanHash {
    public static void main(String[] a) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        int n = 0;
        for (long seed : new long[] {42, 7, 1234}) {
            for (GeneratedTicket t : new TicketGenerator(seed).generate(20000)) {
                md.update(String.valueOf(TicketText.lean(t.subject())).getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
                md.update(String.valueOf(TicketText.lean(t.body())).getBytes(StandardCharsets.UTF_8));
                md.update((byte) 1);
                n++;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (byte b : md.digest()) sb.append(String.format("%02x", b));
        long t0 = System.nanoTime();
        java.util.List<GeneratedTicket> ts = new TicketGenerator(99).generate(20000);
        for (int r = 0; r < 5; r++) for (GeneratedTicket t : ts) TicketText.lean(t.body());
        long t1 = System.nanoTime();
        for (int r = 0; r < 10; r++) for (GeneratedTicket t : ts) TicketText.lean(t.body());
        long t2 = System.nanoTime();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long b0 = mx.getCurrentThreadAllocatedBytes();
        for (GeneratedTicket t : ts) TicketText.lean(t.body());
        long b1 = mx.getCurrentThreadAllocatedBytes();
        System.out.println(n + " tickets " + sb + " ; warm lean " + (t2 - t1) / 200000 + " ns a body, " + (b1 - b0) / 20000 + " bytes a body");
    }
}
