package jinx.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

/** A grouped bar chart of ratios, drawn headless with java.awt and written as PNG. */
final class Chart {

    private static final Color[] COLORS = {new Color(0x3b6fb6), new Color(0xd9822b), new Color(0x4a9c5d),
        new Color(0x9b59b6), new Color(0x888888)};

    private Chart() {
    }

    /**
     * Draws the chart.
     *
     * @param file the PNG to write
     * @param title the title
     * @param groups one group of bars per entry (scenarios)
     * @param series one bar per entry in each group (metrics)
     * @param values values[group][series]; NaN draws no bar
     */
    static void draw(Path file, String title, List<String> groups, List<String> series, double[][] values)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        int w = 1200;
        int h = 560;
        int left = 60;
        int right = 20;
        int top = 60;
        int bottom = 90;
        // a log scale centred on parity: a bar rises for a ratio above 1 and hangs below the line for one under it
        double lo = 0.5;
        double hi = 2;
        for (double[] g : values) {
            for (double v : g) {
                if (v > 0 && !Double.isInfinite(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        double logLo = Math.floor(Math.log(lo) / Math.log(2));
        double logHi = Math.ceil(Math.log(hi) / Math.log(2));
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(title + " (log scale)", left, 30);
        int plotH = h - top - bottom;
        int plotW = w - left - right;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double e = logLo; e <= logHi; e++) {
            int py = y(Math.pow(2, e), logLo, logHi, top, plotH);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(left, py, w - right, py);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, e < 0 ? "%.2f" : "%.0f", Math.pow(2, e)), 10, py + 4);
        }
        int one = y(1, logLo, logHi, top, plotH);
        int groupW = plotW / Math.max(1, groups.size());
        int barW = Math.max(4, (groupW - 20) / Math.max(1, series.size()));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        for (int i = 0; i < groups.size(); i++) {
            int gx = left + i * groupW + 10;
            for (int s = 0; s < series.size(); s++) {
                double v = values[i][s];
                if (!(v > 0) || Double.isInfinite(v)) {
                    continue;
                }
                int py = y(v, logLo, logHi, top, plotH);
                g.setColor(COLORS[s % COLORS.length]);
                g.fillRect(gx + s * barW, Math.min(py, one), barW - 2, Math.max(1, Math.abs(py - one)));
                g.setColor(Color.BLACK);
                g.drawString(String.format(Locale.ROOT, "%.2f", v), gx + s * barW,
                    v >= 1 ? py - 3 : py + 12);
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            String label = groups.get(i);
            int cut = label.lastIndexOf('-');
            if (g.getFontMetrics().stringWidth(label) > groupW - 4 && cut > 0) {
                // a long name on two lines, so that neighbours do not run into each other
                g.drawString(label.substring(0, cut + 1), gx, top + plotH + 18);
                g.drawString(label.substring(cut + 1), gx, top + plotH + 32);
            } else {
                g.drawString(label, gx, top + plotH + 18);
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(Color.RED);
        g.setStroke(new BasicStroke(2));
        g.drawLine(left, one, w - right, one);
        g.setStroke(new BasicStroke(1));
        int lx = left;
        for (int s = 0; s < series.size(); s++) {
            g.setColor(COLORS[s % COLORS.length]);
            g.fillRect(lx, h - 40, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(series.get(s), lx + 20, h - 28);
            lx += 40 + g.getFontMetrics().stringWidth(series.get(s));
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    private static int y(double v, double logLo, double logHi, int top, int plotH) {
        double l = Math.log(v) / Math.log(2);
        return top + plotH - (int) ((l - logLo) / (logHi - logLo) * plotH);
    }
}
