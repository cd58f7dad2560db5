package jinx.kernel;

/**
 * A configuration error. The message is nginx's text ({@code unknown directive "foo"}); the parser adds where it
 * happened, so {@link #getMessage()} reads {@code unknown directive "foo" in /etc/jinx/jinx.conf:3}.
 */
public final class ConfException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String text;
    private final String file;
    private final int line;

    /**
     * An error at the place the parser is at when it catches it.
     *
     * @param text the error text, without a location
     */
    public ConfException(String text) {
        this(text, null, 0, null);
    }

    /**
     * An error caused by another one.
     *
     * @param text the error text, without a location
     * @param cause the cause
     */
    public ConfException(String text, Throwable cause) {
        this(text, null, 0, cause);
    }

    private ConfException(String text, String file, int line, Throwable cause) {
        super(cause);
        this.text = text;
        this.file = file;
        this.line = line;
    }

    /**
     * An error at a known place.
     *
     * @param text the error text
     * @param file the absolute file name
     * @param line the line, from 1
     * @return the error
     */
    public static ConfException at(String text, String file, int line) {
        return new ConfException(text, file, line, null);
    }

    /**
     * Returns this error with a place, unless it has one already.
     *
     * @param atFile the absolute file name
     * @param atLine the line, from 1
     * @return an error with a place
     */
    public ConfException locate(String atFile, int atLine) {
        if (file != null || atFile == null) {
            return this;
        }
        ConfException e = new ConfException(text, atFile, atLine, getCause());
        e.setStackTrace(getStackTrace());
        return e;
    }

    /**
     * Returns the error text without its place.
     *
     * @return the text
     */
    public String text() {
        return text;
    }

    /**
     * Returns the file the error is in, or null.
     *
     * @return the absolute file name
     */
    public String file() {
        return file;
    }

    /**
     * Returns the line the error is at, or 0.
     *
     * @return the line
     */
    public int line() {
        return line;
    }

    @Override
    public String getMessage() {
        if (file == null) {
            return text;
        }
        // -g directives have no file and no line: nginx says "in command line"
        return line == 0 ? text + " in " + file : text + " in " + file + ":" + line;
    }
}
