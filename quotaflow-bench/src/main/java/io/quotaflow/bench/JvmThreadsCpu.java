package io.quotaflow.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where another JVM's CPU went, read from outside through Linux's {@code /proc/<pid>/task/<tid>/stat}: its JIT
 * compiler threads, its garbage collector's threads, and its Java threads (the pipeline's work). (i)'s fresh pipeline
 * JVM is measured so, since in a fresh JVM the compilers and the collector are most of the cost and a thread's
 * CPU there is not visible to this JVM's {@link java.lang.management.ThreadMXBean}. A thread's name is its
 * {@code comm}, the first 15 characters the JVM gave it; a thread that ended inside the window is not counted.
 *
 * @param nanos CPU nanoseconds per group at the snapshot, summed over the live threads
 */
record JvmThreadsCpu(Map<Group, Long> nanos) {

    /** Who in the JVM spent it. */
    enum Group {
        JIT("JIT"),
        GC("GC"),
        JAVA("its Java threads");

        private final String label;

        Group(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    /** Clock ticks a second of {@code /proc}'s times ({@code USER_HZ}; 100 on every Linux the benchmark runs on). */
    private static final long TICKS_PER_SECOND = 100;

    static final JvmThreadsCpu NONE = new JvmThreadsCpu(Map.of());

    JvmThreadsCpu {
        nanos = Map.copyOf(nanos);
    }

    /** The CPU of process {@code pid}'s live threads now, by group; {@link #NONE} where there is no {@code /proc}. */
    static JvmThreadsCpu of(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        Map<Group, Long> sum = new EnumMap<>(Group.class);
        try (Stream<Path> threads = Files.list(tasks)) {
            threads.forEach(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"), StandardCharsets.UTF_8);
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    // after ") ": state is field 3, utime and stime are fields 14 and 15
                    String[] rest = stat.substring(close + 2).split(" ");
                    long ticks = Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
                    sum.merge(groupOf(stat.substring(open + 1, close)), ticks * 1_000_000_000L / TICKS_PER_SECOND, Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended while it was read: not counted
                }
            });
        } catch (IOException e) {
            return NONE;
        }
        return new JvmThreadsCpu(sum);
    }

    /** The group of a thread by its {@code comm}: HotSpot's compiler and collector threads by their names. */
    static Group groupOf(String comm) {
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler") || comm.startsWith("Compiler")) {
            return Group.JIT;
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("VM Thread") || comm.startsWith("GC ")) {
            return Group.GC;
        }
        return Group.JAVA;
    }

    /** CPU nanoseconds per group from {@code start} to this snapshot. */
    Map<Group, Long> since(JvmThreadsCpu start) {
        Map<Group, Long> spent = new EnumMap<>(Group.class);
        for (Group g : Group.values()) {
            spent.put(g, Math.max(0, nanos.getOrDefault(g, 0L) - start.nanos.getOrDefault(g, 0L)));
        }
        return spent;
    }

    /** {@code JIT 600 µs, GC 120 µs, its Java threads 700 µs a ticket}, or an empty string when nothing was read. */
    static String describe(Map<Group, Long> spent, long tickets) {
        if (tickets <= 0 || spent.values().stream().allMatch(v -> v == 0)) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Group, Long> g : spent.entrySet()) {
            sb.append(sb.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %,.0f µs", g.getKey().label(),
                    g.getValue() / 1e3 / tickets));
        }
        return sb.append(" a ticket").toString();
    }
}
