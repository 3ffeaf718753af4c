package io.quotaflow.testkit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class TestDirsTest {

    @Test
    void shouldCreateADirectoryAndRemoveItWithEverythingInIt() throws IOException {
        Path dir = TestDirs.temporary("qf-testdirs");
        assertThat(dir).isDirectory();
        assertThat(dir.getFileName().toString()).startsWith("qf-testdirs");
        Files.writeString(Files.createDirectories(dir.resolve("state/1_0")).resolve("CURRENT"), "x");

        TestDirs.deleteQuietly(dir);

        assertThat(dir).doesNotExist();
        TestDirs.deleteQuietly(dir); // gone already: nothing to do, nothing thrown
    }
}
