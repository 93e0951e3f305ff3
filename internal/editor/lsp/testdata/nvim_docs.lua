-- Run after the init.lua of docs/editors.md ("Neovim"), with a .cue file
-- open: wait for charter's diagnostics and write them to $REPORT, one per
-- line as LINE:COL MESSAGE, after a first line with the buffer's filetype
-- and the number of clients attached.
local f = assert(io.open(os.getenv("REPORT"), "w"))
local ok, err = pcall(function()
  vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  f:write(string.format("filetype=%s clients=%d\n", vim.bo.filetype, #vim.lsp.buf_get_clients(0)))
  for _, d in ipairs(vim.diagnostic.get(0)) do
    f:write(string.format("%d:%d %s\n", d.lnum + 1, d.col + 1, d.message))
  end
end)
if not ok then f:write("error: " .. tostring(err) .. "\n") end
f:close()
vim.cmd("qa!")
