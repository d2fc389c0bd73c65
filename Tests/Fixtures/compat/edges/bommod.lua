return "bom module"
