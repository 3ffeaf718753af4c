package io.quotaflow.dev;

import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code ./quotaflow} launcher's build path, run with a fake {@code mvn} (printing Maven's module
 * lines with colour escapes) and a fake {@code java} on a copy of the script: one line per module on
 * stderr, no escape, the build's errors on a failure, no build when the jar is current.
 */
class LauncherScriptTest {

    private static final String ESC = "\u001b";

    @TempDir
    Path root;

    private Path bin;

    @BeforeEach
    void copyTheScriptAndFakeTheTools() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash is needed to run the launcher");
        Files.copy(RepositoryFiles.path("quotaflow"), root.resolve("quotaflow"), StandardCopyOption.COPY_ATTRIBUTES);
        bin = Files.createDirectories(root.resolve("bin"));
        executable(root.resolve("jdk/bin/java"), "#!/bin/sh\necho \"java $*\"\n");
    }

    @Test
    void shouldShowOneLinePerModuleWithoutEscapesAndThenRunTheJar() throws Exception {
        fakeMaven(0, """
                [INFO] Scanning for projects...
                \u001b[1m[INFO] -------------------< io.quotaflow:quotaflow-parent >--------------------\u001b[m
                [INFO] Building quotaflow 0.1.0-SNAPSHOT                                  [1/3]
                [INFO] Compiling 120 source files with javac [debug release 17] to target/classes
                [INFO] Building quotaflow-core 0.1.0-SNAPSHOT                             [2/3]
                [WARNING] \u001b[0msome plugin warning\u001b[0m
                \u001b[1m[INFO] Building quotaflow-bench 0.1.0-SNAPSHOT                            [3/3]\u001b[m
                [INFO] BUILD SUCCESS
                """);

        Result r = launch("--version");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain(ESC).doesNotContain("Compiling", "WARNING", "BUILD SUCCESS", "Scanning");
        assertThat(r.err().lines().toList()).containsExactly(
                "quotaflow: building " + root.resolve("quotaflow-bench/target/quotaflow-dev.jar")
                        + " (first run or sources changed; about a minute)...",
                "quotaflow: building quotaflow [1/3]",
                "quotaflow: building quotaflow-core [2/3]",
                "quotaflow: building quotaflow-bench [3/3]");
        assertThat(Files.readString(root.resolve("mvn-args"))).contains("-B", "-Dstyle.color=never", "package")
                .doesNotContain(" -q ");
        assertThat(r.out()).isEqualTo("java -jar " + root.resolve("quotaflow-bench/target/quotaflow-dev.jar") + " --version\n");
    }

    @Test
    void shouldNotBuildAgainWhileTheJarIsNewerThanTheSources() throws Exception {
        fakeMaven(0, "[INFO] Building quotaflow-core 0.1.0-SNAPSHOT [1/1]\n");
        assertThat(launch("status").code()).isZero();
        Files.delete(root.resolve("mvn-args"));

        Result again = launch("status");

        assertThat(again.code()).isZero();
        assertThat(again.err()).isEmpty();
        assertThat(root.resolve("mvn-args")).as("mvn not run").doesNotExist();
    }

    @Test
    void shouldPrintTheBuildsErrorsWithoutEscapesAndKeepTheLogWhenTheBuildFails() throws Exception {
        fakeMaven(1, """
                [INFO] Building quotaflow-core 0.1.0-SNAPSHOT                             [1/2]
                [INFO] some detail
                \u001b[1;31m[ERROR] COMPILATION ERROR :\u001b[m
                [ERROR] /src/Foo.java:[3,1] class, interface, enum, or record expected
                """);

        Result r = launch("run");

        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).doesNotContain(ESC).doesNotContain("some detail")
                .contains("quotaflow: building quotaflow-core [1/2]", "quotaflow: the build failed:",
                        "[ERROR] COMPILATION ERROR :", "[ERROR] /src/Foo.java:[3,1] class, interface, enum, or record expected")
                .containsPattern("quotaflow: the whole build log is \\S+quotaflow-build\\.\\w+");
        assertThat(r.out()).as("the jar is not run").isEmpty();
    }

    /** An {@code mvn} that records its arguments, prints {@code output} and, on success, makes the jar. */
    private void fakeMaven(int exitCode, String output) throws IOException {
        Files.writeString(root.resolve("mvn-output"), output);
        executable(bin.resolve("mvn"), "#!/bin/sh\n"
                + "echo \" $* \" > \"" + root.resolve("mvn-args") + "\"\n"
                + "cat \"" + root.resolve("mvn-output") + "\"\n"
                + (exitCode == 0 ? "mkdir -p quotaflow-bench/target && touch quotaflow-bench/target/quotaflow-dev.jar\n" : "")
                + "exit " + exitCode + "\n");
    }

    private Result launch(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("/bin/bash", root.resolve("quotaflow").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile());
        pb.environment().put("PATH", bin + ":/usr/bin:/bin");
        pb.environment().put("JAVA_HOME", root.resolve("jdk").toString());
        pb.environment().put("TMPDIR", Files.createDirectories(root.resolve("tmp")).toString());
        pb.environment().remove("QUOTAFLOW_JAVA_OPTS");
        Path out = root.resolve("stdout");
        Path err = root.resolve("stderr");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void executable(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private record Result(int code, String out, String err) {
    }
}
