/* A bootrom of the project's own for the emulated Pico (tools/pico/pico.mjs, docs/pico-emulator.md).

   The RP2040's B1 bootrom carries float routines licensed for use on an RP2040 only, so the emulator boots on this
   one instead: the header at 0x10 (magic, version, the pointers at 0x14/0x16/0x18 the pico-sdk's rom_func_lookup and
   rom_data_lookup read), a reset handler that does what the B1's does for a flash boot (copy boot2, the first 256
   bytes of flash, to SRAM at 0x20041F00 and enter it with lr = 0, so that boot2 vectors into the image), and the
   functions the image looks up. The bit operations and memcpy/memset are real Cortex-M0+ code; the flash routines
   are BKPT traps the emulator serves (rp2040js's flash controller does not write), as are a blank flash (the real
   ROM would enter USB boot) and a lookup of a function this ROM lacks (the image would call address 0). The image is
   built on the compiler's float and double (tools/pico/patch_rp2_float.py): no float table here.

   Built with arm-none-eabi-gcc -mcpu=cortex-m0plus (Makefile, `make image`). */

#include <stdint.h>
#include <stddef.h>

#define BKPT_FLASH_ERASE 0x10
#define BKPT_FLASH_PROGRAM 0x11
#define BKPT_USB_BOOT 0x12
#define BKPT_NO_IMAGE 0x13
#define BKPT_MISSING 0x14 /* r0: the code looked up */

/* 0x00: the vector table's first four words (initial SP, reset, NMI, HardFault), then the header the pico-sdk
   reads at fixed addresses: magic, version, then 16-bit pointers to the function table, the data table and the
   lookup. Assembly, for the 16-bit relocations C initialisers cannot hold; +1: Thumb code. */
__asm(".section .header, \"a\"\n"
      ".word 0x20042000, reset + 1, hang + 1, hang + 1\n"
      ".byte 'M', 'u', 0x01, 3\n"
      ".hword func_table, data_table, table_lookup + 1\n"
      ".text\n");

/* Reset: a blank flash traps (the real ROM would wait for a UF2 over USB); else boot2 copied to the top of SRAM
   and entered with lr = 0, boot2's sign that it came from the bootrom, and the stack below it. */
__attribute__((naked, noreturn)) void reset(void) {
    __asm volatile(
        ".syntax unified\n" /* gcc hands Thumb-1 inline assembly the divided syntax */
        "ldr r0, =0x10000000\n"
        "ldr r3, [r0]\n"
        "adds r3, #1\n"
        "bne 1f\n"
        "bkpt %0\n"
        "1: ldr r1, =0x20041f00\n"
        "movs r2, #64\n"
        "2: ldmia r0!, {r3}\n"
        "stmia r1!, {r3}\n"
        "subs r2, #1\n"
        "bne 2b\n"
        "ldr r0, =0x20041f00\n"
        "mov sp, r0\n" /* the stack just below boot2, which it would overwrite from the top of SRAM */
        "adds r0, #1\n"
        "movs r1, #0\n"
        "mov lr, r1\n"
        "bx r0\n"
        ".ltorg\n"
        ".syntax divided\n" ::"i"(BKPT_NO_IMAGE));
}

__attribute__((used)) void hang(void) {
    for (;;) {
        __asm volatile("wfi");
    }
}

/* The traps the emulator serves: on return from the BKPT it has done the work. */
#define TRAP(name, n)                                                                 \
    __attribute__((naked, used)) void name(void) {                                  \
        __asm volatile("bkpt %0\nbx lr\n" ::"i"(n));                                 \
    }
/* The RP2040's ROM requires an erase's offset and count to be whole 4096-byte sectors and a program's whole 256-byte
   pages (the datasheet's flash_range_erase and flash_range_program): off them, the chip's ROM silently erases or
   programs what it was not asked to. The emulator serving these traps refuses them loudly instead (pico.mjs). */
TRAP(flash_range_erase, BKPT_FLASH_ERASE)       /* (offset, count, block_size, block_cmd): to 0xFF */
TRAP(flash_range_program, BKPT_FLASH_PROGRAM)   /* (offset, data, count): AND, a NOR flash only clears bits */
TRAP(reset_usb_boot, BKPT_USB_BOOT)

/* The flash's other routines have nothing to do in the emulator: no SSI mode to switch, no XIP cache. */
__attribute__((used)) void flash_nothing(void) {}

__attribute__((used)) uint32_t popcount32(uint32_t v) {
    uint32_t n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

__attribute__((used)) uint32_t reverse32(uint32_t v) {
    uint32_t r = 0;
    for (int i = 0; i < 32; i++, v >>= 1) r = (r << 1) | (v & 1);
    return r;
}

__attribute__((used)) uint32_t clz32(uint32_t v) {
    uint32_t n = 32;
    for (; v; v >>= 1) n--;
    return n;
}

__attribute__((used)) uint32_t ctz32(uint32_t v) {
    if (!v) return 32;
    uint32_t n = 0;
    for (; !(v & 1); v >>= 1) n++;
    return n;
}

/* Word by word where it can, as the RP2040's own ROM does: byte by byte, it took a sixth of the shoe's boot. */
__attribute__((used)) void *memset_(void *ptr, int c, size_t n) {
    volatile uint8_t *p = ptr; /* volatile: no pattern the compiler would turn back into a memset call */
    uint32_t word = (uint8_t)c * 0x01010101u;
    for (; n && ((uintptr_t)p & 3); n--) *p++ = (uint8_t)c;
    for (; n >= 4; n -= 4, p += 4) *(volatile uint32_t *)p = word;
    while (n--) *p++ = (uint8_t)c;
    return ptr;
}

__attribute__((used)) void *memcpy_(void *dst, const void *src, size_t n) {
    volatile uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4) *(volatile uint32_t *)d = *(const uint32_t *)s;
    }
    while (n--) *d++ = *s++;
    return dst;
}

__attribute__((used)) void *memset4(uint32_t *ptr, uint8_t c, size_t n) {
    uint32_t word = c * 0x01010101u;
    volatile uint32_t *p = ptr;
    for (; n >= 4; n -= 4) *p++ = word;
    return ptr;
}

/* The lookup the pico-sdk reaches through the pointer at 0x18: tables of (code, address) half-words, ending in 0.
   A code this ROM lacks traps, naming it, rather than return a null the image would call. */
__attribute__((used)) void *table_lookup(const uint16_t *table, uint32_t code) {
    for (; table[0]; table += 2) {
        if (table[0] == code) return (void *)(uintptr_t)table[1];
    }
    register uint32_t r0 __asm("r0") = code;
    __asm volatile("bkpt %1" ::"r"(r0), "i"(BKPT_MISSING));
    return 0;
}

#define ENTRY(c1, c2, f) ".hword " #c1 " | (" #c2 " << 8), " #f " + 1\n"
__asm(".section .rodata\n.balign 2\n"
      "func_table:\n"
      ENTRY('P', '3', popcount32) ENTRY('R', '3', reverse32) ENTRY('L', '3', clz32) ENTRY('T', '3', ctz32)
      ENTRY('M', 'S', memset_) ENTRY('S', '4', memset4) ENTRY('M', 'C', memcpy_) ENTRY('C', '4', memcpy_)
      ENTRY('I', 'F', flash_nothing) ENTRY('E', 'X', flash_nothing) ENTRY('R', 'E', flash_range_erase)
      ENTRY('R', 'P', flash_range_program) ENTRY('F', 'C', flash_nothing) ENTRY('C', 'X', flash_nothing)
      ENTRY('U', 'B', reset_usb_boot)
      ".hword 0\n"
      "data_table:\n"
      ".hword 'C' | ('R' << 8), copyright\n"
      ".hword 0\n"
      ".text\n");

__attribute__((used)) static const char copyright[] = "sabot emulated Pico bootrom";
