/*
 * arch/x86/serial.c - the 16550 UART on COM1, the kernel console.
 *
 * 115200 baud, 8N1, FIFOs on, no interrupts: output is polled, a FIFO's
 * worth of bytes each time the transmitter reports it empty.  A '\n' goes
 * out as "\r\n" like Linux's serial console, so that a raw terminal shows
 * the log the right way.  The log is the test report, so the console is
 * never skipped or rate-limited.
 */
#include "arch/x86/serial.h"
#include "asm/io.h"
#include "kernel/printk.h"

#define COM1 0x3f8
#define UART_TX 0	/* transmit holding register */
#define UART_DLL 0	/* divisor latch, low (with DLAB) */
#define UART_IER 1	/* interrupt enable */
#define UART_DLM 1	/* divisor latch, high (with DLAB) */
#define UART_FCR 2	/* FIFO control */
#define UART_LCR 3	/* line control */
#define UART_MCR 4	/* modem control */
#define UART_LSR 5	/* line status */
#define UART_LCR_DLAB 0x80
#define UART_LCR_8N1 0x03
#define UART_LSR_THRE 0x20
#define UART_BAUD_BASE 115200

/*
 * The 16550's THRE means its 16-byte transmit FIFO is empty: after one
 * look at the line status, up to UART_FIFO_SIZE bytes may go out without
 * another (Linux's 8250 driver fills tx_loadsz bytes per THRE the same
 * way).  Under QEMU each port access is an exit to the emulator, so this
 * halves them.
 */
#define UART_FIFO_SIZE 16

static void serial_write(const char *s, size_t len)
{
	unsigned int room = 0;

	for (size_t i = 0; i < len; i++) {
		bool cr = s[i] == '\n';

		if (room < 1u + cr) {
			while (!(inb(COM1 + UART_LSR) & UART_LSR_THRE))
				;
			room = UART_FIFO_SIZE;
		}
		if (cr) {
			outb('\r', COM1 + UART_TX);
			room--;
		}
		outb((u8)s[i], COM1 + UART_TX);
		room--;
	}
}

static const struct console serial_console = {
	.name = "ttyS0",
	.write = serial_write,
};

void serial_init(void)
{
	unsigned int divisor = UART_BAUD_BASE / 115200;

	outb(0x00, COM1 + UART_IER);
	outb(UART_LCR_DLAB, COM1 + UART_LCR);
	outb(divisor & 0xff, COM1 + UART_DLL);
	outb(divisor >> 8, COM1 + UART_DLM);
	outb(UART_LCR_8N1, COM1 + UART_LCR);
	outb(0xc7, COM1 + UART_FCR);	/* enable, clear, 14-byte threshold */
	outb(0x03, COM1 + UART_MCR);	/* DTR, RTS */
	register_console(&serial_console);
}
