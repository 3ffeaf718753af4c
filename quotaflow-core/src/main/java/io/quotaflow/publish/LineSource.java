package io.quotaflow.publish;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits input into lines. A line ends at {@code \n} (a {@code \r} before it is dropped); a last
 * line without a terminator still counts; a UTF-8 byte order mark at the very start is dropped.
 */
interface LineSource {

    /** The next line without its terminator, or {@code null} at the end of the input. */
    byte[] next() throws IOException;

    /** Lines of a character stream, encoded as UTF-8. */
    static LineSource of(Reader reader) {
        BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader, 1 << 16);
        return new LineSource() {
            private boolean first = true;

            @Override
            public byte[] next() throws IOException {
                String line = in.readLine();
                if (line == null) {
                    return null;
                }
                if (first) {
                    first = false;
                    if (line.startsWith("\uFEFF")) {
                        line = line.substring(1);
                    }
                }
                return line.getBytes(StandardCharsets.UTF_8);
            }
        };
    }

    /** Lines of a byte stream, bytes untouched (no charset decoding). */
    static LineSource of(InputStream input) {
        return new ByteLines(input);
    }

    final class ByteLines implements LineSource {
        private final InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int limit;
        private boolean eof;
        private boolean first = true;
        private byte[] line = new byte[1024];

        ByteLines(InputStream in) {
            this.in = in;
        }

        @Override
        public byte[] next() throws IOException {
            int len = 0;
            boolean sawAny = false;
            while (true) {
                if (pos == limit) {
                    if (eof || !fill()) {
                        if (!sawAny) {
                            return null;
                        }
                        break;
                    }
                }
                sawAny = true;
                int start = pos;
                while (pos < limit && buf[pos] != '\n') {
                    pos++;
                }
                len = append(len, start, pos - start);
                if (pos < limit) { // found '\n'
                    pos++;
                    break;
                }
            }
            if (len > 0 && line[len - 1] == '\r') {
                len--;
            }
            int from = 0;
            if (first) {
                first = false;
                if (len >= 3 && line[0] == (byte) 0xEF && line[1] == (byte) 0xBB && line[2] == (byte) 0xBF) {
                    from = 3;
                }
            }
            return Arrays.copyOfRange(line, from, len);
        }

        private boolean fill() throws IOException {
            int n = in.read(buf);
            while (n == 0) {
                n = in.read(buf);
            }
            if (n < 0) {
                eof = true;
                return false;
            }
            pos = 0;
            limit = n;
            return true;
        }

        private int append(int len, int start, int count) {
            if (len + count > line.length) {
                line = Arrays.copyOf(line, Math.max(line.length * 2, len + count));
            }
            System.arraycopy(buf, start, line, len, count);
            return len + count;
        }
    }
}
