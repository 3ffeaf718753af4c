package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class JvmThreadsCpuTest {

    @Test
    void shouldGroupHotSpotsCompilerAndCollectorThreadsApartFromJavaThreads() {
        assertThat(JvmThreadsCpu.groupOf("C2 CompilerThre")).isEqualTo(JvmThreadsCpu.Group.JIT);
        assertThat(JvmThreadsCpu.groupOf("C1 CompilerThre")).isEqualTo(JvmThreadsCpu.Group.JIT);
        assertThat(JvmThreadsCpu.groupOf("GC Thread#1")).isEqualTo(JvmThreadsCpu.Group.GC);
        assertThat(JvmThreadsCpu.groupOf("G1 Conc#0")).isEqualTo(JvmThreadsCpu.Group.GC);
        assertThat(JvmThreadsCpu.groupOf("VM Thread")).isEqualTo(JvmThreadsCpu.Group.GC);
        assertThat(JvmThreadsCpu.groupOf("bench-5f0c2a1e-")).isEqualTo(JvmThreadsCpu.Group.JAVA);
        assertThat(JvmThreadsCpu.groupOf("kafka-producer-")).isEqualTo(JvmThreadsCpu.Group.JAVA);
    }

    @Test
    void shouldReadThisProcessesThreadsAndSubtractTheStart() {
        JvmThreadsCpu start = new JvmThreadsCpu(Map.of(JvmThreadsCpu.Group.JIT, 1_000_000L, JvmThreadsCpu.Group.JAVA, 5_000_000L));
        JvmThreadsCpu end = new JvmThreadsCpu(Map.of(JvmThreadsCpu.Group.JIT, 3_000_000L, JvmThreadsCpu.Group.GC, 1_000_000L,
                JvmThreadsCpu.Group.JAVA, 9_000_000L));
        Map<JvmThreadsCpu.Group, Long> spent = end.since(start);
        assertThat(spent).containsEntry(JvmThreadsCpu.Group.JIT, 2_000_000L).containsEntry(JvmThreadsCpu.Group.GC, 1_000_000L)
                .containsEntry(JvmThreadsCpu.Group.JAVA, 4_000_000L);
        assertThat(JvmThreadsCpu.describe(spent, 1_000)).isEqualTo("JIT 2 µs, GC 1 µs, its Java threads 4 µs a ticket");
        assertThat(JvmThreadsCpu.describe(new JvmThreadsCpu(Map.of()).since(JvmThreadsCpu.NONE), 1_000)).isEmpty();
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            // this JVM has Java threads that have run
            assertThat(JvmThreadsCpu.of(ProcessHandle.current().pid()).nanos().get(JvmThreadsCpu.Group.JAVA)).isPositive();
        }
    }
}
