/* A stand-in for bcryptprimitives.dll, for running the Windows build under Wine in tests only
 * (.ci/wine_parity.sh puts it beside retromodel.exe; it never goes into a release zip).
 *
 * Rust's standard library (1.78 and later) calls bcryptprimitives.dll's ProcessPrng for
 * random bytes (HashMap seeds); Wine 8, as Debian 12 ships it, lacks that export and the
 * program does not start. This DLL exports ProcessPrng and fills the buffer from
 * advapi32's RtlGenRandom (SystemFunction036), which Wine has. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reason;
    (void)reserved;
    return TRUE;
}
